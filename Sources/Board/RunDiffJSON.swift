import RunEvents
import ScenarioKit
import TextKit

/// Two runs compared, as JSON Lines for scripts (`opscope diff --format
/// jsonl`; every field in docs/SCENARIO-LANGUAGE.md, "Comparing two
/// runs"): a `runs` line, a `divergence` line when the steps part, an
/// `operation` line per difference, and a `summary` line last.
public enum RunDiffJSON {
    public static func render(_ diff: RunDiff, a: RunLabel, b: RunLabel) -> String {
        var lines: [String] = []
        var out: [UInt8] = []
        func line(_ build: (inout [UInt8]) -> Void) {
            out.removeAll(keepingCapacity: true)
            build(&out)
            lines.append(String(decoding: out, as: UTF8.self))
        }
        line { out in
            out.appendLiteral(#"{"kind":"runs","a":"#)
            run(diff.a, a, to: &out)
            out.appendLiteral(#","b":"#)
            run(diff.b, b, to: &out)
            out.appendLiteral(#","tolerance":{"floor":"#)
            out += Array(Spelling.secondsNumber(diff.tolerance.floor).utf8)
            out.appendLiteral(#","relative":"#)
            out += Array(String(diff.tolerance.relative).utf8)
            out.appendLiteral("}}")
        }
        if diff.files.uncompared != nil || diff.files.statements > 0 {
            line { out in files(diff.files, to: &out) }
        }
        if let divergence = diff.divergence {
            line { out in
                out.appendLiteral(#"{"kind":"divergence","step":"#)
                out += Array(String(divergence.index + 1).utf8)
                out.appendLiteral(#","a":"#)
                step(divergence.a, later: divergence.aLaterInB, to: &out)
                out.appendLiteral(#","b":"#)
                step(divergence.b, later: divergence.bLaterInA, to: &out)
                out.appendLiteral(#","swap":"#)
                out.appendLiteral(divergence.isSwap ? "true" : "false")
                out.appendLiteral("}")
            }
        }
        for race in diff.races {
            line { out in
                out.appendLiteral(#"{"kind":"race","step":"#)
                out += Array(String(race.index + 1).utf8)
                out.appendLiteral(#","ops":["#)
                for (i, name) in race.operations.enumerated() {
                    if i > 0 { out.appendLiteral(",") }
                    JSONBytes.appendQuoted(name, to: &out)
                }
                out.appendLiteral(#"],"t":"#)
                out += Array(Spelling.secondsNumber(race.time).utf8)
                out.appendLiteral("}")
            }
        }
        for difference in diff.operations {
            line { out in operation(difference, to: &out) }
        }
        line { out in summary(diff, to: &out) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"kind":"files","changes":1,"statements":1,"named":["net cap 2 → 3"]}`,
    /// or with `"uncompared":{"a":N,"b":M}` (operations) for files too large.
    private static func files(_ changes: ScenarioChanges, to out: inout [UInt8]) {
        out.appendLiteral(#"{"kind":"files","changes":"#)
        out += Array(String(changes.named.count).utf8)
        out.appendLiteral(#","statements":"#)
        out += Array(String(changes.statements).utf8)
        out.appendLiteral(#","named":["#)
        for (i, change) in changes.named.enumerated() {
            if i > 0 { out.appendLiteral(",") }
            JSONBytes.appendQuoted(change, to: &out)
        }
        out.appendLiteral("]")
        if let uncompared = changes.uncompared {
            out.appendLiteral(#","uncompared":{"a":"#)
            out += Array(String(uncompared.before).utf8)
            out.appendLiteral(#","b":"#)
            out += Array(String(uncompared.now).utf8)
            out.appendLiteral("}")
        }
        out.appendLiteral("}")
    }

    private static func run(_ run: RunSteps, _ label: RunLabel, to out: inout [UInt8]) {
        out.appendLiteral(#"{"path":"#)
        JSONBytes.appendQuoted(label.path, to: &out)
        switch label.source {
        case .scenario(let speed):
            out.appendLiteral(#","from":"scenario","speed":"#)
            out += Array(ScenarioPrinter.speedText(speed).utf8)
        case .recording(let scenario):
            out.appendLiteral(#","from":"recording","scenario":"#)
            JSONBytes.appendQuoted(scenario, to: &out)
        case .session(let about):
            out.appendLiteral(#","from":"session","about":"#)
            JSONBytes.appendQuoted(about, to: &out)
        }
        out.appendLiteral(#","notifications":"#)
        out += Array(String(run.eventCount).utf8)
        out.appendLiteral(#","steps":"#)
        out += Array(String(run.steps.count).utf8)
        out.appendLiteral(#","end":"#)
        switch run.facts.outcome {
        case .completed: out.appendLiteral(#""completed""#)
        case .stalled: out.appendLiteral(#""stalled""#)
        case nil: out.appendLiteral("null")
        }
        out.appendLiteral(#","t":"#)
        out += Array(Spelling.secondsNumber(run.facts.endTime).utf8)
        out.appendLiteral("}")
    }

    private static func step(_ step: RunSteps.Step?, later: RunDiff.Placed?, to out: inout [UInt8]) {
        guard let step else {
            out.appendLiteral("null")
            return
        }
        stamp(step, to: &out)
        out.appendLiteral(#","what":"#)
        JSONBytes.appendQuoted(step.what.keyword, to: &out)
        out.appendLiteral(#","op":"#)
        if let name = step.what.operation {
            JSONBytes.appendQuoted(name, to: &out)
        } else {
            out.appendLiteral("null")
        }
        out.appendLiteral(#","text":"#)
        JSONBytes.appendQuoted(step.what.phrase, to: &out)
        out.appendLiteral(#","later":"#)
        if let later {
            out.appendLiteral(#"{"step":"#)
            out += Array(String(later.index + 1).utf8)
            out.appendLiteral(",")
            stamp(later.step, to: &out, opening: false)
        } else {
            out.appendLiteral("null")
        }
        out.appendLiteral("}")
    }

    /// `{"seq":19,"t":0.305` (without the brace when `opening` is false).
    private static func stamp(_ step: RunSteps.Step, to out: inout [UInt8], opening: Bool = true) {
        if opening { out.appendLiteral("{") }
        out.appendLiteral(#""seq":"#)
        out += Array(String(step.event.seq).utf8)
        out.appendLiteral(#","t":"#)
        out += Array(Spelling.secondsNumber(step.event.time).utf8)
        if !opening { out.appendLiteral("}") }
    }

    private static func operation(_ difference: RunDiff.OperationDifference, to out: inout [UInt8]) {
        out.appendLiteral(#"{"kind":"operation","op":"#)
        JSONBytes.appendQuoted(difference.operation, to: &out)
        out.appendLiteral(#","difference":"#)
        func time(_ t: Double?) {
            if let t { out += Array(Spelling.secondsNumber(t).utf8) } else { out.appendLiteral("null") }
        }
        func text(_ s: String?) {
            if let s { JSONBytes.appendQuoted(s, to: &out) } else { out.appendLiteral("null") }
        }
        switch difference.aspect {
        case .onlyIn(let side):
            out.appendLiteral(#""presence","a":"#)
            out.appendLiteral(side == .a ? "true" : "false")
            out.appendLiteral(#","b":"#)
            out.appendLiteral(side == .b ? "true" : "false")
        case .ending(let a, let b):
            out.appendLiteral(#""ending","a":"#)
            text(a.rawValue)
            out.appendLiteral(#","b":"#)
            text(b.rawValue)
        case .start(let a, let b), .finish(let a, let b):
            if case .start = difference.aspect {
                out.appendLiteral(#""start","a":"#)
            } else {
                out.appendLiteral(#""finish","a":"#)
            }
            time(a)
            out.appendLiteral(#","b":"#)
            time(b)
        case .thread(let a, let b):
            out.appendLiteral(#""thread","a":"#)
            text(a?.rawValue)
            out.appendLiteral(#","b":"#)
            text(b?.rawValue)
        }
        out.appendLiteral("}")
    }

    private static func summary(_ diff: RunDiff, to out: inout [UInt8]) {
        let counts = RunDiffText.Counts(diff)
        out.appendLiteral(#"{"kind":"summary","agree":"#)
        out.appendLiteral(diff.agrees ? "true" : "false")
        out.appendLiteral(#","step":"#)
        if let divergence = diff.divergence {
            out += Array(String(divergence.index + 1).utf8)
        } else {
            out.appendLiteral("null")
        }
        let fields: [(StaticString, Int)] = [
            (#","endings":"#, counts.endings), (#","only_in_a":"#, counts.onlyInA),
            (#","only_in_b":"#, counts.onlyInB), (#","threads":"#, counts.threads),
            (#","starts":"#, counts.starts), (#","finishes":"#, counts.finishes),
            (#","races":"#, diff.races.count), (#","file_changes":"#, diff.files.named.count),
        ]
        for (key, value) in fields {
            out.appendLiteral(key)
            out += Array(String(value).utf8)
        }
        out.appendLiteral(#","text":"#)
        JSONBytes.appendQuoted(RunDiffText.summary(diff), to: &out)
        out.appendLiteral("}")
    }
}
