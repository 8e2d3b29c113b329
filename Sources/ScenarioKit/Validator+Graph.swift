extension Validator {
    /// Reports every dependency cycle once, with its path: an error, or,
    /// once the `at` actions are resolved (`judgeCycles`), a warning when
    /// an `at … cancel` of one of its operations breaks it.
    mutating func findCycles() {
        cycles = Self.cycles(in: dependencies, cut: [], names: dependencyNames)
    }

    /// The cycles found by `findCycles`, judged against the timed actions
    /// (`actions`, resolved): a cycle with an operation that an `at TIME
    /// cancel` cancels is broken there — cancelled, that operation is
    /// ready whatever it waits for, finishes without running, and what
    /// waits for it runs (checked with plain Foundation:
    /// `.ci/probes/run 20 cyclebreak cyclenone`; swift-corelibs-foundation's
    /// `test_DependencyCycleBreak`) — and is a warning naming that cancel.
    /// Every cycle nothing breaks is an error: the cycles that remain once
    /// the cancelled operations wait for nothing.
    mutating func judgeCycles(_ actions: [TimedAction]) {
        guard !cycles.isEmpty else { return }
        var cancels: [Int: TimedAction] = [:]
        for timed in actions {
            if case .cancel(let op) = timed.action, cancels[op.index] == nil { cancels[op.index] = timed }
        }
        let unbroken =
            cancels.isEmpty ? cycles : Self.cycles(in: dependencies, cut: Set(cancels.keys), names: dependencyNames)
        for cycle in unbroken {
            report(.dependencyCycle(path: cycle.path.map { tree.operations[$0].name.text }, at: cycle.location))
        }
        guard !cancels.isEmpty else { return }
        for cycle in cycles {
            // The cancel that comes first breaks it.
            let breakers = cycle.path.dropLast().filter { cancels[$0] != nil }
            guard
                let breaker = breakers.min(by: {
                    (cancels[$0]!.time, cancels[$0]!.location) < (cancels[$1]!.time, cancels[$1]!.location)
                }), let cancel = cancels[breaker]
            else { continue }
            let name = tree.operations[breaker].name.text
            report(
                .dependencyCycleBroken(
                    path: cycle.path.map { tree.operations[$0].name.text }, by: name,
                    at: ScenarioPrinter.format(cancel.time), line: cancel.location.line, location: cycle.location))
        }
    }

    /// Every cycle of `dependencies` once, with its path, leaving out the
    /// dependencies of the operations in `cut` (cancelled ones: they wait
    /// for nothing).
    ///
    /// An iterative depth-first search (an explicit stack, never recursion,
    /// so a 10 000-long chain cannot overflow the thread's stack). Each edge
    /// that closes a cycle (it leads back to an operation still on the
    /// stack) is one cycle; its location is that edge's name in `after`,
    /// and the path starts there: `u → v → … → u`, read "u waits for v…".
    private static func cycles(in dependencies: [DependencyList], cut: Set<Int>, names dependencyNames: [[Name]])
        -> [Cycle]
    {
        var found: [Cycle] = []
        let count = dependencies.count
        // 0: not visited, 1: on the stack, 2: done.
        var state = [UInt8](repeating: 0, count: count)
        var positionOnStack = [Int](repeating: -1, count: count)
        var stack: [(node: Int, nextEdge: Int)] = []
        for root in 0..<count where state[root] == 0 {
            stack.append((root, 0))
            state[root] = 1
            positionOnStack[root] = 0
            while let top = stack.last {
                let u = top.node
                guard top.nextEdge < (cut.contains(u) ? 0 : dependencies[u].count) else {
                    state[u] = 2
                    positionOnStack[u] = -1
                    stack.removeLast()
                    continue
                }
                let edge = top.nextEdge
                stack[stack.count - 1].nextEdge += 1
                let v = dependencies[u][edge].index
                switch state[v] {
                case 0:
                    state[v] = 1
                    positionOnStack[v] = stack.count
                    stack.append((v, 0))
                case 1:
                    var path = [u]
                    for entry in stack[positionOnStack[v]...] { path.append(entry.node) }
                    found.append(Cycle(path: path, location: dependencyNames[u][edge].location))
                default:
                    break
                }
            }
        }
        return found
    }

    /// Warns about every operation that waits, directly or through other
    /// operations, for a `never-finishes` operation: it can never start.
    ///
    /// A breadth-first walk from the `never-finishes` operations along the
    /// reverse edges, so each operation is warned about once, via its
    /// shortest path, at the name in its `after` that leads there.
    mutating func findNeverStarting() {
        let count = dependencies.count
        let roots = (0..<count).filter {
            tree.operations[$0].neverFinishes != nil && tree.operations[$0].body?.isAsync == true
                && !tree.operations[$0].neverFinishesOnlyIfCancelled
        }
        // The reverse edges only when some operation never finishes: for a
        // large file they are a small array per operation.
        guard !roots.isEmpty else { return }
        var dependents = [[(node: Int, edge: Int)]](repeating: [], count: count)
        for u in 0..<count {
            for (edge, v) in dependencies[u].enumerated() {
                dependents[v.index].append((u, edge))
            }
        }
        // The never-finishes operation each doomed operation waits for.
        var root = [Int](repeating: -1, count: count)
        for r in roots { root[r] = r }
        var queue = roots
        var head = 0
        while head < queue.count {
            let v = queue[head]
            head += 1
            for (u, edge) in dependents[v] where root[u] == -1 {
                root[u] = root[v]
                queue.append(u)
                report(
                    .waitsForNeverFinishing(
                        tree.operations[u].name.text, dependency: tree.operations[v].name.text,
                        root: tree.operations[root[v]].name.text, at: dependencyNames[u][edge].location))
            }
        }
    }
}

/// A dependency cycle: the operations along it (`u → v → … → u`, by
/// index, the first repeated last) and the name in `after` that closes it.
struct Cycle: Sendable {
    var path: [Int]
    var location: SourceLocation
}
