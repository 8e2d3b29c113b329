@_spi(Reflection) import Swift
import Foundation

// Foundation's internal state of an operation (`__state`), read under the
// operation's own lock at the offset the runtime's reflection gives.
// 0 initialized, 1 enqueuing, 2 enqueued, 3 dispatching, 4 starting,
// 5 executing, 6 finishing, 7 finished (the declaration's case order).

/// Reads Foundation's internal operation state (`__state`) under its own lock.
struct EngineState {
    let stateOffset: Int
    let lockOffset: Int
    init?() {
        var s: Int?, l: Int?
        _ = _forEachField(of: Operation.self, options: .classType) { name, offset, type, kind in
            let n = String(cString: name)
            if n == "__state", kind == .enum, _openExistential(type, do: sizeOf) == 1 { s = offset }
            if n == "__atomicLoad", type == NSLock.self { l = offset }
            return true
        }
        guard let s, let l else { return nil }
        stateOffset = s; lockOffset = l
    }
    func read(_ op: Operation) -> UInt8 {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(op).toOpaque())
        let lock = Unmanaged<NSLock>.fromOpaque(base.load(fromByteOffset: lockOffset, as: UnsafeRawPointer.self)).takeUnretainedValue()
        lock.lock()
        let v = base.load(fromByteOffset: stateOffset, as: UInt8.self)
        lock.unlock()
        return v
    }
}
func sizeOf<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
let names = ["initialized", "enqueuing", "enqueued", "dispatching", "starting", "executing", "finishing", "finished"]
func mirrorState(_ op: Operation) -> String {
    var m = Mirror(reflecting: op)
    while m.subjectType != Operation.self, let s = m.superclassMirror { m = s }
    return String(describing: m.children.first { $0.label == "__state" }!.value)
}
