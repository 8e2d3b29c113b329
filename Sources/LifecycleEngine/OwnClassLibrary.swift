import Foundation
import ScenarioKit

#if canImport(Glibc)
    import Glibc
#endif

/// The user's classes, compiled with `OwnClassGlue` into a shared library
/// and loaded into this process: the factory of each type, which makes an
/// instance of its watched subclass that reports to a run.
///
/// Loaded once and never unloaded (the classes' code must outlive every
/// object of theirs). A process that loads one is a child of the opscope
/// the user runs: a crash in the user's code ends the child only.
public final class OwnClassLibrary: @unchecked Sendable {
    typealias Report = @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32) -> Void
    typealias Make = @convention(c) (Int32, Report, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer

    /// The types, in the order of their factories (`OwnClassGlue.types`).
    public let types: [String]
    private let makers: [Make]

    /// Why a library could not be loaded: `dlopen`'s or `dlsym`'s words.
    public struct LoadFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Loads the library at `path`, built for `types`.
    public init(path: String, types: [String]) throws(LoadFailure) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw LoadFailure(description: "cannot load \(path): \(why)")
        }
        var makers: [Make] = []
        for n in types.indices {
            guard let symbol = dlsym(handle, OwnClassGlue.factorySymbol(n)) else {
                throw LoadFailure(description: "\(path) has no \(OwnClassGlue.factorySymbol(n)) (for \(types[n]))")
            }
            makers.append(unsafeBitCast(symbol, to: Make.self))
        }
        self.types = types
        self.makers = makers
    }

    /// An instance of `type` for operation `index`, reporting to `sink`;
    /// nil for a type the library was not built for.
    func make(_ type: String, index: Int, sink: OwnClassSink) -> Operation? {
        guard let n = types.firstIndex(of: type) else { return nil }
        let made = makers[n](Int32(index), ownClassReport, sink.context)
        return Unmanaged<Operation>.fromOpaque(made).takeRetainedValue()
    }
}

/// Where the watched subclasses of one run report: held by every object
/// they made for good (an object may outlive its run: one its own
/// completion block keeps alive), and pointing at the run weakly.
final class OwnClassSink: @unchecked Sendable {
    weak var core: RunCore?
    /// This sink, retained for as long as the process lives: the objects
    /// hold a bare pointer to it.
    private(set) var context: UnsafeMutableRawPointer?

    init(core: RunCore) {
        self.core = core
        context = nil
        context = Unmanaged.passRetained(self).toOpaque()
    }
}

/// The report function every watched subclass calls: to the run of its
/// sink, if the run is still there.
private let ownClassReport: OwnClassLibrary.Report = { context, index, event, value in
    guard let context, index >= 0, let event = OwnClassEvent(rawValue: event) else { return }
    let sink = Unmanaged<OwnClassSink>.fromOpaque(context).takeUnretainedValue()
    sink.core?.ownClassSaid(Int(index), event, value != 0)
}
