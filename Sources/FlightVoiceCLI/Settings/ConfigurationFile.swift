import Foundation

/// The settings file, `/etc/flightvoice/flightvoice.conf` unless `--config FILE` or `FLIGHTVOICE_CONFIG` names another.
///
/// Format: one `key = value` per line; a line whose first non-blank character is `#` is a comment; blank lines are
/// ignored. Every key is one of `SettingKey`, set at most once, with a value its key accepts. Anything else is an
/// error naming the file and line (exit 78), never a silent default.
struct ConfigurationFile: Sendable, Equatable {
    /// The file read when neither `--config` nor `FLIGHTVOICE_CONFIG` names one.
    static let defaultPath = "/etc/flightvoice/flightvoice.conf"
    /// The environment variable naming the settings file in place of `defaultPath` (for tests and side-by-side installs).
    static let environmentVariable = "FLIGHTVOICE_CONFIG"

    /// One setting as written in the file.
    struct Entry: Sendable, Equatable {
        let value: String
        /// The line it is on, counting from 1.
        let line: Int
    }

    /// How the file was chosen.
    enum Origin: String, Sendable {
        /// `--config FILE`.
        case flag = "--config"
        /// `FLIGHTVOICE_CONFIG`.
        case environment = "FLIGHTVOICE_CONFIG"
        /// The default path.
        case builtIn = "default"
    }

    /// The file's path (read or not).
    let path: String
    let origin: Origin
    /// False when the default file does not exist (every key then takes its default).
    let exists: Bool
    let entries: [SettingKey: Entry]

    /// The file named by `flag` (`--config`), else by `FLIGHTVOICE_CONFIG`, else the default path. A file named
    /// explicitly must exist; the default file may be absent.
    static func load(flag: String?, environment: [String: String]) throws(ConfigurationError) -> ConfigurationFile {
        let (path, origin): (String, Origin) =
            if let flag { (flag, .flag) }
            else if let named = environment[environmentVariable], !named.isEmpty { (named, .environment) }
            else { (defaultPath, .builtIn) }
        guard FileManager.default.fileExists(atPath: path) else {
            if origin == .builtIn { return ConfigurationFile(path: path, origin: origin, exists: false, entries: [:]) }
            throw ConfigurationError(path: path, line: nil, message: "no such file (named by \(origin.rawValue))")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ConfigurationError(path: path, line: nil, message: "is a folder, not a settings file")
        }
        // Read through a handle (not String(contentsOfFile:)), so that /dev/null reads as an empty file.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConfigurationError(path: path, line: nil, message: "cannot read it (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw ConfigurationError(path: path, line: nil, message: "cannot read it (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(path: path, line: nil, message: "cannot read it (not UTF-8 text)")
        }
        return ConfigurationFile(path: path, origin: origin, exists: true, entries: try parse(text, path: path))
    }

    /// The entries of `text`; `path` is only for messages.
    static func parse(_ text: String, path: String) throws(ConfigurationError) -> [SettingKey: Entry] {
        var entries: [SettingKey: Entry] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError(path: path, line: number, message: "expected 'key = value', not '\(line)'")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let key = SettingKey(rawValue: name) else {
                throw ConfigurationError(path: path, line: number, message: "unknown key '\(name)' (keys: \(SettingKey.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if let earlier = entries[key] {
                throw ConfigurationError(path: path, line: number, message: "\(name) is already set on line \(earlier.line); set it once")
            }
            if let problem = key.problem(with: value) {
                throw ConfigurationError(path: path, line: number, message: "\(name): \(problem)")
            }
            entries[key] = Entry(value: value, line: number)
        }
        return entries
    }
}

/// A settings file that cannot be used: its path, the line at fault (when one is), and what is wrong. Exit 78.
struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    let path: String
    let line: Int?
    let message: String

    var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
