import Foundation

/// Everything the service keeps, under one folder: `flights.sqlite`, `jobs.sqlite`, `media/`, `transcripts/`,
/// `s3/BUCKET/KEY` objects, the API token and the AWS credentials. Paths built from client input are checked here
/// so that no name or key can reach outside the folder.
public struct DataFolder: Sendable {
    /// The folder's absolute path, without a trailing slash.
    public let root: String

    /// Uses (creating when missing) the folder at `path`.
    public init(path: String) throws {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        root = (absolute as NSString).standardizingPath
        for folder in [root, root + "/media", root + "/transcripts", root + "/s3"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// `$XDG_DATA_HOME/flightvoice`, else `~/.local/share/flightvoice`.
    public static func defaultPath(environment: [String: String]) -> String {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share"
        }
        return dataHome + "/flightvoice"
    }

    public var flightsDatabase: String { Self.flightsDatabase(in: root) }

    /// The flights database of the data folder at `root`, whether or not it is open.
    public static func flightsDatabase(in root: String) -> String { root + "/flights.sqlite" }
    public var jobsDatabase: String { root + "/jobs.sqlite" }
    public var tokenFile: String { root + "/api-token" }
    public var credentialsFile: String { root + "/aws-credentials" }
    public var lockFile: String { root + "/server.lock" }

    /// The absolute path of `relative` (a path this service stored, such as `media/job1`).
    public func absolute(_ relative: String) -> String { root + "/" + relative }

    /// Where the media of job `name` is kept (relative). `name` must already be a valid job name.
    public static func mediaPath(job name: String) -> String { "media/\(name)" }
    /// Where the transcript of job `name` is kept (relative).
    public static func transcriptPath(job name: String) -> String { "transcripts/\(name).json" }

    /// The relative path of object `key` in `bucket`, or nil when either could escape the folder or is not allowed.
    /// Buckets follow S3's rules (3–63 of `a-z0-9.-`); keys are 1–1024 bytes with no `.`/`..` segment, no NUL, and
    /// no leading or trailing "/".
    public static func objectPath(bucket: String, key: String) -> String? {
        guard isValidBucket(bucket), isValidKey(key) else { return nil }
        return "s3/\(bucket)/\(key)"
    }

    /// True for an S3-style bucket name.
    public static func isValidBucket(_ bucket: String) -> Bool {
        (3...63).contains(bucket.utf8.count) && bucket.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        } && bucket != "." && bucket != ".." && !bucket.hasPrefix(".")
    }

    /// True for an object key that maps to a file inside its bucket's folder.
    public static func isValidKey(_ key: String) -> Bool {
        guard (1...1024).contains(key.utf8.count), !key.hasPrefix("/"), !key.hasSuffix("/"), !key.utf8.contains(0) else { return false }
        return key.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".." && segment.utf8.count <= 255
        }
    }

    /// True for a job name: `[A-Za-z0-9._-]{1,200}` and not "." or "..".
    public static func isValidJobName(_ name: String) -> Bool {
        (1...200).contains(name.utf8.count) && name != "." && name != ".." && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// Writes `data` to `relative` atomically (a temporary file renamed into place), creating parent folders.
    public func write(_ data: Data, to relative: String) throws {
        let path = absolute(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Reads the secret in `path`, or creates it with `make()` and mode 0600; the flag says whether it was created.
    static func secretFile(at path: String, make: () -> String) throws -> (contents: String, created: Bool) {
        if let existing = FileManager.default.contents(atPath: path) {
            return (String(decoding: existing, as: UTF8.self), false)
        }
        let contents = make()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST, let existing = FileManager.default.contents(atPath: path) { return (String(decoding: existing, as: UTF8.self), false) }
            throw ServiceSetupError(message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(contents.utf8))
        } catch {
            throw ServiceSetupError(message: "cannot write \(path): \(error.localizedDescription)")
        }
        return (contents, true)
    }
}

/// The service cannot start: a folder, a secret file or a database is unusable.
public struct ServiceSetupError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
