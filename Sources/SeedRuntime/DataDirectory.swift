import Foundation

/// Where an app keeps its data: `$XDG_DATA_HOME/<app>` or `~/.local/share/<app>` on Linux,
/// `Application Support/<app>` on Apple platforms. Apps take an override (`--data-dir`).
public enum DataDirectory {
    /// The user data directory of `app` (not created here; the installer creates it).
    public static func path(forApp app: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        #if canImport(Darwin)
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first!.path
        return URL(fileURLWithPath: base).appendingPathComponent(app).path
        #else
        // The XDG base directory spec: a relative $XDG_DATA_HOME is invalid and ignored.
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(app).path
        }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: user).appendingPathComponent(".local/share").appendingPathComponent(app).path
        #endif
    }
}
