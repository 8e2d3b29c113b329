extension Validator {
    /// Reports every dependency cycle once, with its path.
    ///
    /// An iterative depth-first search (an explicit stack, never recursion,
    /// so a 10 000-long chain cannot overflow the thread's stack). Each edge
    /// that closes a cycle (it leads back to an operation still on the
    /// stack) is one cycle; it is reported at that edge's name in `after`,
    /// and the path starts there: `u → v → … → u`, read "u waits for v…".
    mutating func findCycles() {
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
                guard top.nextEdge < dependencies[u].count else {
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
                    var path = [tree.operations[u].name.text]
                    for entry in stack[positionOnStack[v]...] {
                        path.append(tree.operations[entry.node].name.text)
                    }
                    report(.dependencyCycle(path: path, at: dependencyNames[u][edge].location))
                default:
                    break
                }
            }
        }
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
