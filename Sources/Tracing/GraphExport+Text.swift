import Board
import RunEvents
import ScenarioKit
import TextKit

/// The two dialects' text. Names go in quoted strings, never as bare
/// identifiers (Mermaid gets `o0`, `o1`… as ids), so that any name the
/// language allows reads back as itself.
extension GraphExport {
    // MARK: - Graphviz

    func dotText(interrupted: Bool) -> String {
        var out = "// opscope trace --format dot: an edge goes from a dependency to what depends on it\n"
        out += "digraph opscope {\n"
        out +=
            "  graph [rankdir=LR, labelloc=t, fontname=\"Helvetica\", label=\(dot(caption(interrupted: interrupted)))];\n"
        out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];\n"
        out += "  edge [color=\"#555555\"];\n"
        for (q, ops) in operationsByQueue.enumerated() where !ops.isEmpty {
            out += "  subgraph \(dot("cluster_\(q)")) {\n"
            out += "    label=\(dot(groupLabel(q))); style=\"rounded\"; color=\"#9e9e9e\";\n"
            for op in ops { out += "    " + dotNode(op) + "\n" }
            out += "  }\n"
        }
        for spec in scenario.operations {
            for dep in spec.dependencies {
                let dashed = countsAsFinishedThoughCancelled(dep) ? " [style=dashed]" : ""
                out += "  \(dot(scenario.opName(dep))) -> \(dot(spec.name))\(dashed);\n"
            }
        }
        for edge in barrierEdges {
            let (from, to) = (scenario.opName(edge.from), scenario.opName(edge.to))
            out += "  \(dot(from)) -> \(dot(to)) [style=dashed, label=\"barrier\", fontsize=9];\n"
        }
        out += "}\n"
        return out
    }

    private func dotNode(_ op: OperationID) -> String {
        let spec = scenario[operation: op]
        let f = facts[op]
        let state = state(of: op)
        var attributes = [
            "label=" + dot("\(spec.name)\n\(barrierLine(op))\(summary(of: op))"),
            "fillcolor=\"\(Self.fill(state))\"",
            "opscope_state=\(dot(state))",
        ]
        if spec.isBarrier { attributes.append("shape=hexagon") }
        if let s = f.started { attributes.append("opscope_started=\(dot(Self.number(s.time)))") }
        if let e = f.finished { attributes.append("opscope_finished=\(dot(Self.number(e.time)))") }
        if let c = f.cancelled { attributes.append("opscope_cancelled=\(dot(Self.number(c.time)))") }
        if let thread = f.thread { attributes.append("opscope_thread=\(dot(thread.isMain ? "main" : "\(thread)"))") }
        return "\(dot(spec.name)) [\(attributes.joined(separator: ", "))];"
    }

    /// A quoted string of Graphviz's language.
    package func dot(_ text: String) -> String {
        var out = "\""
        for c in text {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": break
            default: out += Self.visible(c, backslash: "\\\\")
            }
        }
        return out + "\""
    }

    /// `c`, or, when a terminal would act on it, its escape as `TerminalText`
    /// writes it with each backslash spelt `backslash`: a graph read on a
    /// terminal shows a file's control characters, never acts on them.
    static func visible(_ c: Character, backslash: String) -> String {
        guard c.unicodeScalars.contains(where: TerminalText.isControl) else { return String(c) }
        return TerminalText.escaped(String(c)).replacingOccurrences(of: "\\", with: backslash)
    }

    // MARK: - Mermaid

    func mermaidText(interrupted: Bool) -> String {
        var out = "---\ntitle: \(yaml(caption(interrupted: interrupted)))\n---\nflowchart LR\n"
        for (q, ops) in operationsByQueue.enumerated() where !ops.isEmpty {
            out += "  subgraph q\(q)[\(mermaid(groupLabel(q)))]\n"
            for op in ops {
                let spec = scenario[operation: op]
                let barrier = barrierLine(op).replacingOccurrences(of: "\n", with: "<br/>")
                let label = mermaid("\(spec.name)<br/>\(barrier)\(summary(of: op))")
                let shape = spec.isBarrier ? "{{\(label)}}" : "[\(label)]"
                out += "    o\(op.index)\(shape):::\(Self.mermaidClass(state(of: op)))\n"
            }
            out += "  end\n"
        }
        for (i, spec) in scenario.operations.enumerated() {
            for dep in spec.dependencies {
                let arrow = countsAsFinishedThoughCancelled(dep) ? "-.->" : "-->"
                out += "  o\(dep.index) \(arrow) o\(i)\n"
            }
        }
        for edge in barrierEdges { out += "  o\(edge.from.index) -. barrier .-> o\(edge.to.index)\n" }
        for state in ["finished", "cancelled", "skipped", "stuck", "not started", "never started"] {
            out += "  classDef \(Self.mermaidClass(state)) fill:\(Self.fill(state)),stroke:#555555,color:#000000\n"
        }
        return out
    }

    static func mermaidClass(_ state: String) -> String { state.replacingOccurrences(of: " ", with: "-") }

    /// A quoted Mermaid label: `"` and `#` (which starts an entity) as
    /// entities; `<br/>` is kept for the line break.
    package func mermaid(_ text: String) -> String {
        var out = "\""
        for c in text {
            switch c {
            case "\"": out += "#quot;"
            case "#": out += "#35;"
            case "\n", "\r": out += " "
            default: out += Self.visible(c, backslash: "\\")
            }
        }
        return out + "\""
    }

    /// A double-quoted YAML scalar, for the front matter's title.
    func yaml(_ text: String) -> String {
        var out = "\""
        for c in text {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n", "\r", "\t": out += " "
            default: out += Self.visible(c, backslash: "\\\\")
            }
        }
        return out + "\""
    }

    // MARK: - Pieces

    /// The barrier rule's waits (`BarrierRule`: what each barrier waits
    /// for, what waits for it) that no `after` clause already draws, in
    /// the file's add order.
    var barrierEdges: [Scenario.BarrierEdge] {
        scenario.barrierEdges.filter { !scenario[operation: $0.to].dependencies.contains($0.from) }
    }

    /// `barrier on disk` and a line break for a barrier, nothing for an
    /// operation: the label names the queue whose rule its edges are.
    func barrierLine(_ op: OperationID) -> String {
        let spec = scenario[operation: op]
        return spec.isBarrier ? "barrier on \(scenario.queueName(spec.queue))\n" : ""
    }

    /// The dependency ended cancelled (or skipped) and finished: what
    /// depends on it was released all the same (drawn dashed).
    func countsAsFinishedThoughCancelled(_ dep: OperationID) -> Bool {
        facts[dep].cancelled != nil && facts[dep].finished != nil
    }

    /// Seconds with three decimals, no unit: an attribute a script reads.
    static func number(_ seconds: Double) -> String {
        String(Spelling.seconds(seconds).dropLast())
    }
}
