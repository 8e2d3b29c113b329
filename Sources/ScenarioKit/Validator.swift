import TextKit

/// Resolves names and checks meaning: `SyntaxTree` → `Scenario`.
///
/// Collects every error and warning it finds; the scenario is built only
/// when there is no error (from the validator, or handed in from the lexer
/// and parser). All lookups are dictionary-based and the graph walks are
/// iterative, so a 10 000-operation file costs linear time and constant
/// stack depth.
struct Validator {
    let tree: SyntaxTree
    var diagnostics = DiagnosticList()

    /// Name → index of its first declaration.
    var queueIndex: [String: Int] = [:]
    var operationIndex = NameTable()
    /// Declared queues, or the implicit `default` queue.
    var queues: [QueueSpec] = []
    /// Resolved queue of each operation (index into `queues`).
    var operationQueues: [Int] = []
    /// Resolved dependencies of each operation, with the token of each.
    var dependencies: [DependencyList] = []
    var dependencyNames: [[Name]] = []
    /// Resolved completion block of each operation (nil: none), filled by
    /// `resolveCompletions`.
    var completions: [[Action]?] = []
    /// The dependency cycles (`findCycles`), judged once the `at` actions
    /// are resolved (`judgeCycles`).
    var cycles: [Cycle] = []
    /// The top-level `add` statements, resolved (`resolveStartBatches`).
    var startBatches: [AddBatch] = []

    /// Whether the read is still wanted; nil: always.
    var cancellation: ReadCancellation?
    /// Whether `class TYPE` may be read (`ScenarioReader.OwnCode`).
    var ownCode = ScenarioReader.OwnCode.refused

    init(tree: SyntaxTree) {
        self.tree = tree
    }

    /// Validates `tree`. `hasEarlierErrors` says whether the lexer or the
    /// parser already found errors: then no scenario is built either.
    /// The names an unknown one may be a typo of come with the result:
    /// queues (the declared ones, or the implicit `default`) and
    /// operations, each in declaration order.
    /// Given up once `cancellation` says so (no scenario then).
    static func validate(
        _ tree: SyntaxTree, hasEarlierErrors: Bool, cancellation: ReadCancellation? = nil,
        ownCode: ScenarioReader.OwnCode = .refused
    ) -> (scenario: Scenario?, diagnostics: DiagnosticList, names: DeclaredNames) {
        var validator = Validator(tree: tree)
        validator.cancellation = cancellation
        validator.ownCode = ownCode
        let scenario = validator.run()
        let names = DeclaredNames(queues: validator.queues.map(\.name), operations: tree.operations)
        let diagnostics = validator.diagnostics
        ReleaseLater.release(validator, operations: tree.operations.count)
        if hasEarlierErrors || diagnostics.hasErrors || scenario == nil {
            return (nil, diagnostics, names)
        }
        return (scenario, diagnostics, names)
    }

    /// The scenario; nil when the read was given up (`cancellation`),
    /// which each pass looks at before it begins and the long ones as
    /// they go.
    private mutating func run() -> Scenario? {
        checkTitles()
        declareNames()
        guard !cancellation.isCancelled else { return nil }
        buildQueues()
        resolveOperations()
        guard !cancellation.isCancelled else { return nil }
        findCycles()
        guard !cancellation.isCancelled else { return nil }
        findNeverStarting()
        guard !cancellation.isCancelled else { return nil }
        warnUnusedQueues()
        resolveCompletions()
        let actions = resolveActions()
        judgeCycles(actions)
        let expectations = resolveExpectations()
        let quiz = checkQuizzes()
        let speed = checkSpeeds()
        let captions = resolveCaptions(actions: actions)
        guard !cancellation.isCancelled else { return nil }
        findHazards(actions)
        guard !cancellation.isCancelled else { return nil }
        var operations: [OperationSpec] = []
        operations.reserveCapacity(tree.operations.count)
        for index in tree.operations.indices {
            if index % ReadCancellation.statementsBetween == 0, cancellation.isCancelled { return nil }
            operations.append(operationSpec(index))
        }
        var scenario = Scenario(
            title: tree.titles.first?.text, notes: tree.notes, queues: queues, operations: operations,
            actions: actions, expectations: expectations, quiz: quiz, captions: captions, speed: speed?.value,
            promisedUpTo: speed?.promisedUpTo)
        scenario.startBatches = startBatches
        for (index, op) in tree.operations.enumerated() {
            if let leaves = op.leaves, case .work? = op.body { scenario.leftovers[OperationID(index)] = leaves.value }
            if op.neverFinishesOnlyIfCancelled, op.body?.isAsync == true {
                scenario.forgetsIfCancelled.insert(OperationID(index))
            }
            if let type = op.body?.customClass, let at = op.classAt {
                scenario.classLocations[OperationID(index)] = at
                if tree.codeFiles.isEmpty {
                    report(.classNeedsCode(type, at: at))
                } else if ownCode == .refused {
                    report(.classNotRunHere(type, at: at))
                }
            }
        }
        scenario.code = tree.codeFiles.map { CodeFile(path: $0.value, location: $0.location) }
        return scenario
    }

    mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    // MARK: Declarations

    private mutating func checkTitles() {
        guard let first = tree.titles.first else { return }
        for extra in tree.titles.dropFirst() {
            report(.duplicateTitle(firstLine: first.location.line, at: extra.location))
        }
    }

    /// Names are unique across queues and operations; the later of two
    /// declarations (in file order) is the one reported.
    /// At most one quiz: the first one counts, the others are errors.
    private mutating func checkQuizzes() -> Quiz? {
        guard let first = tree.quizzes.first else { return nil }
        for extra in tree.quizzes.dropFirst() {
            report(.duplicateQuiz(firstLine: first.location.line, at: extra.location))
        }
        let operands = resolveQuizOperands(first)
        return Quiz(
            question: first.question, kind: first.kind, operands: operands, moment: first.moment,
            location: first.location)
    }

    /// The operations `together A, B` and `completions before OP` name;
    /// also checks that a `completions` question has blocks to ask about.
    private mutating func resolveQuizOperands(_ quiz: QuizSyntax) -> [OperationID] {
        var ids: [OperationID] = []
        for name in quiz.operands {
            guard let id = resolveOperation(name) else { continue }
            if quiz.kind == .together {
                if tree.operations[id.index].isBarrier {
                    report(.quizOperandIsBarrier(name.text, at: name.location))
                } else if ids.contains(id) {
                    report(.togetherSameOperation(name.text, at: name.location))
                }
            }
            ids.append(id)
        }
        if quiz.kind == .completions, ids.count == quiz.operands.count {
            let before = ids.first
            let asked = tree.operations.indices.contains {
                tree.operations[$0].completion != nil && $0 != before?.index
            }
            if !asked { report(.completionsWithoutBlocks(before: quiz.operands.first?.text, at: quiz.location)) }
        }
        return ids
    }

    private mutating func declareNames() {
        // Sized once: a scenario of 100,000 names would otherwise rehash
        // each dictionary some seventeen times.
        queueIndex.reserveCapacity(tree.queues.count)
        operationIndex = NameTable(capacity: tree.operations.count)
        let fewQueues = tree.queues.count <= 8
        var declaredQueues: [(name: String, index: Int)] = []
        var q = 0
        var o = 0
        while q < tree.queues.count || o < tree.operations.count {
            if o % ReadCancellation.statementsBetween == 0, cancellation.isCancelled { return }
            let takeQueue =
                o == tree.operations.count
                || (q < tree.queues.count && tree.queues[q].name.location < tree.operations[o].name.location)
            let name = takeQueue ? tree.queues[q].name : tree.operations[o].name
            // The first declaration of a name, queue or operation, wins.
            // Few queues, as a rule: a look along the ones declared so far
            // costs less than hashing every operation's name once more.
            let firstQueue =
                fewQueues ? declaredQueues.first { $0.name == name.text }?.index : queueIndex[name.text]
            if let first = firstQueue {
                let line = tree.queues[first].name.location.line
                report(.duplicateName(name.text, firstKind: "a queue", firstLine: line, at: name.location))
            } else if takeQueue {
                if let first = operationIndex[name.text] {
                    reportDuplicate(name, ofOperation: first)
                } else {
                    queueIndex[name.text] = q
                    if fewQueues { declaredQueues.append((name.text, q)) }
                }
            } else {
                // One probe for the common case, a new name: insert it, or
                // find the first declaration.
                let first = operationIndex.insertFirst(name.text, value: o)
                if first != o {
                    reportDuplicate(name, ofOperation: first)
                }
            }
            if takeQueue { q += 1 } else { o += 1 }
        }
    }

    private mutating func reportDuplicate(_ name: Name, ofOperation first: Int) {
        let kind = tree.operations[first].isBarrier ? "a barrier" : "an operation"
        let line = tree.operations[first].name.location.line
        report(.duplicateName(name.text, firstKind: kind, firstLine: line, at: name.location))
    }

    private mutating func buildQueues() {
        var mainQueue: QueueSyntax?
        for syntax in tree.queues {
            if let main = syntax.main {
                if let mainQueue {
                    report(
                        .secondMainQueue(first: mainQueue.name.text, firstLine: mainQueue.name.location.line, at: main))
                } else {
                    mainQueue = syntax
                }
            }
            queues.append(
                QueueSpec(
                    name: syntax.name.text, cap: syntax.cap?.value ?? .systemDefault, qos: syntax.qos?.value,
                    startsSuspended: syntax.suspended != nil, isMain: syntax.main != nil,
                    location: syntax.name.location))
        }
        if queues.isEmpty {
            // A file without queues runs on one implicit queue with no options.
            queues.append(QueueSpec(name: "default"))
            queueIndex["default"] = 0
        }
    }

    // MARK: Name resolution

    /// The queue `name` refers to, or nil after reporting why there is none.
    mutating func resolveQueue(_ name: Name) -> QueueID? {
        if let index = queueIndex[name.text] { return QueueID(index) }
        if operationIndex[name.text] != nil {
            report(.notAQueue(name.text, at: name.location))
        } else {
            report(
                .unknownQueue(name: name.text, suggestion: nil, at: name.location).suggesting(name.text, among: .queue))
        }
        return nil
    }

    /// The operation (or barrier) `name` refers to, or nil after reporting.
    mutating func resolveOperation(_ name: Name) -> OperationID? {
        if let index = operationIndex[name.text] { return OperationID(index) }
        if queueIndex[name.text] != nil {
            report(.notAnOperation(name.text, at: name.location))
        } else {
            report(
                .unknownOperation(name: name.text, suggestion: nil, at: name.location).suggesting(
                    name.text, among: .operation))
        }
        return nil
    }

    private mutating func resolveOperations() {
        operationQueues.reserveCapacity(tree.operations.count)
        // By index: the fields read, not a copy of each whole syntax.
        for index in tree.operations.indices {
            if index % ReadCancellation.statementsBetween == 0, cancellation.isCancelled { return }
            let queue = tree.operations[index].queue.flatMap { resolveQueue($0) } ?? QueueID(0)
            let opName = tree.operations[index].name.text
            operationQueues.append(queue.index)
            let written = tree.operations[index].dependencies
            var ids: [OperationID] = []
            // The names kept, made only once one is left out: until then
            // they are the names written (one array, not a copy of it).
            var kept: [Name]?
            // Most operations have a few dependencies: a look along the list
            // beats hashing; a set takes over for a long fan-in.
            var seen: Set<OperationID>?
            for (position, name) in written.enumerated() {
                var resolved: OperationID?
                if name.text == opName {
                    report(.selfDependency(name.text, at: name.location))
                } else if let id = resolveOperation(name) {
                    if seen == nil && ids.count >= 16 { seen = Set(ids) }
                    if seen?.contains(id) ?? ids.contains(id) {
                        report(.duplicateDependency(name.text, at: name.location))
                    } else {
                        resolved = id
                    }
                }
                guard let id = resolved else {
                    if kept == nil { kept = Array(written[..<position]) }
                    continue
                }
                ids.append(id)
                seen?.insert(id)
                kept?.append(name)
            }
            if ids.count > FanIn.quietLimit {
                report(.slowFanIn(opName, count: ids.count, at: tree.operations[index].name.location))
            }
            // Operations after the same ones (a fan-out's) share one list.
            let list = DependencyList(ids)
            dependencies.append(dependencies.last.map { $0 == list ? $0 : list } ?? list)
            dependencyNames.append(kept ?? written)
            if let priority = tree.operations[index].priority, queues[queue.index].isMain {
                report(.priorityOnMainQueue(opName, at: priority.location))
            }
        }
    }

    private mutating func warnUnusedQueues() {
        var used = [Bool](repeating: false, count: queues.count)
        for q in operationQueues { used[q] = true }
        for (index, syntax) in tree.queues.enumerated() where !used[index] {
            // Only the first declaration of a name owns an index.
            if queueIndex[syntax.name.text] == index {
                report(.unusedQueue(syntax.name.text, at: syntax.name.location))
            }
        }
    }

    private func operationSpec(_ index: Int) -> OperationSpec {
        // Field by field, not a copy of the whole syntax per operation.
        OperationSpec(
            name: tree.operations[index].name.text, queue: QueueID(operationQueues[index]),
            body: tree.operations[index].body ?? (tree.operations[index].isBarrier ? .barrier(.zero) : .work(.zero)),
            dependencies: dependencies[index], priority: tree.operations[index].priority?.value,
            qos: tree.operations[index].qos?.value, completion: completions[index],
            ignoresCancel: tree.operations[index].ignoresCancel,
            neverFinishes: tree.operations[index].neverFinishes != nil
                && !tree.operations[index].neverFinishesOnlyIfCancelled, location: tree.operations[index].name.location)
    }
}
