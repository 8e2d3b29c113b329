/// Where opscope keeps things for a user, by the XDG base directory rules:
/// `$XDG_DATA_HOME/opscope` else `$HOME/.local/share/opscope` for what it
/// keeps (the practice record), `$XDG_CACHE_HOME/opscope` else
/// `$HOME/.cache/opscope` for what it can make again (compiled programs).
/// A variable that is not an absolute path is ignored, as the rules say.
public enum UserFolders {
    /// The data folder; nil when `environment` has neither variable.
    public static func data(environment: [String: String]) -> String? {
        folder(environment, variable: "XDG_DATA_HOME", underHome: ".local/share")
    }

    /// The cache folder; nil when `environment` has neither variable.
    public static func cache(environment: [String: String]) -> String? {
        folder(environment, variable: "XDG_CACHE_HOME", underHome: ".cache")
    }

    private static func folder(_ environment: [String: String], variable: String, underHome: String) -> String? {
        if let base = environment[variable], base.hasPrefix("/") { return trimmed(base) + "/opscope" }
        if let home = environment["HOME"], home.hasPrefix("/") { return trimmed(home) + "/\(underHome)/opscope" }
        return nil
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
