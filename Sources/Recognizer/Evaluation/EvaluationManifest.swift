import FlightCore
import Foundation

/// A list of clips with the answer each should get: a TSV whose header has at least `path` and `flight`.
/// `path` is relative to the manifest's folder; `flight` is the expected flight number, empty when none is said.
/// Every other column can group the figures (`--by condition`).
public struct EvaluationManifest: Sendable {
    /// One clip to evaluate.
    public struct Entry: Sendable, Hashable {
        /// Path as written in the manifest.
        public let path: String
        /// The file to decode: `path` resolved against the manifest's folder.
        public let resolvedPath: String
        /// The expected flight, or nil when the clip says no flight number.
        public let expected: FlightNumber?
        /// Every column of the row by header name.
        public let columns: [String: String]
    }

    /// A manifest that cannot be read; the line is 1-based (1 is the header).
    public struct FormatError: Error, CustomStringConvertible, Sendable {
        public let file: String
        public let line: Int
        public let problem: String
        public var description: String { "\(file):\(line): \(problem)" }
    }

    public let columns: [String]
    public let entries: [Entry]

    /// Reads a manifest file.
    public init(contentsOf path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FormatError(file: path, line: 0, problem: "cannot read the manifest: \(error.localizedDescription)")
        }
        try self.init(text: text, file: path, folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Parses manifest text; relative paths are resolved against `folder`.
    public init(text: String, file: String, folder: String) throws {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first else { throw FormatError(file: file, line: 1, problem: "the manifest is empty") }
        columns = header.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for required in ["path", "flight"] where !columns.contains(required) {
            throw FormatError(file: file, line: 1, problem: "the header has no '\(required)' column (it has \(columns.joined(separator: ", ")))")
        }
        var entries: [Entry] = []
        for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == columns.count else {
                throw FormatError(file: file, line: offset + 1, problem: "\(fields.count) fields where the header has \(columns.count)")
            }
            let row = Dictionary(zip(columns, fields), uniquingKeysWith: { first, _ in first })
            let path = row["path"]!
            guard !path.isEmpty else { throw FormatError(file: file, line: offset + 1, problem: "empty path") }
            let flightText = row["flight"]!.trimmingCharacters(in: .whitespaces)
            var expected: FlightNumber?
            if !flightText.isEmpty {
                guard let flight = FlightNumber(parsing: flightText) else {
                    throw FormatError(file: file, line: offset + 1, problem: "'\(flightText)' is not a flight number such as LX40")
                }
                expected = flight
            }
            let resolved = path.hasPrefix("/") ? path : URL(fileURLWithPath: folder).appendingPathComponent(path).path
            entries.append(Entry(path: path, resolvedPath: resolved, expected: expected, columns: row))
        }
        self.entries = entries
    }
}
