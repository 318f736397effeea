import FlightCore
import Foundation

/// A list of clips with the flight each should be recognized as: a TSV with a header holding at least `path`
/// (relative to the manifest's folder) and `flight` (canonical, empty when no flight is said). Other columns are kept
/// for grouping (e.g. `condition`, `kind`).
public struct EvaluationManifest: Sendable {
    /// One clip to decode.
    public struct Entry: Sendable, Hashable {
        /// Absolute (or manifest-relative resolved) path of the audio file.
        public let path: String
        /// The flight that was said, nil when none was.
        public let expected: FlightNumber?
        /// Every column of the row by header name.
        public let columns: [String: String]
    }

    /// Why a manifest could not be read.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        /// The manifest file.
        public let path: String
        /// 1-based line number, 0 for the whole file.
        public let line: Int
        /// What is wrong and what to do.
        public let reason: String
        /// "manifest.tsv:3: …".
        public var description: String { "\(path):\(line): \(reason)" }
    }

    /// Header names in file order.
    public let columns: [String]
    /// The clips in file order.
    public let entries: [Entry]

    /// Reads the manifest at `path`.
    public init(contentsOf path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw FormatError(path: path, line: 0, reason: "cannot read the manifest")
        }
        try self.init(text: text, folder: (path as NSString).deletingLastPathComponent, source: path)
    }

    /// Parses manifest text; relative clip paths resolve against `folder`.
    public init(text: String, folder: String, source: String = "manifest") throws {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first else { throw FormatError(path: source, line: 0, reason: "empty manifest") }
        let names = header.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.contains("path"), names.contains("flight") else {
            throw FormatError(path: source, line: 1, reason: "the header needs the columns 'path' and 'flight' (tab-separated)")
        }
        var entries: [Entry] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var columns: [String: String] = [:]
            for (name, field) in zip(names, fields) { columns[name] = field }
            let relative = columns["path", default: ""]
            guard !relative.isEmpty else { throw FormatError(path: source, line: index + 1, reason: "empty path") }
            let flightText = columns["flight", default: ""].trimmingCharacters(in: .whitespaces)
            var expected: FlightNumber?
            if !flightText.isEmpty {
                guard let flight = FlightNumber(parsing: flightText) else {
                    throw FormatError(path: source, line: index + 1, reason: "'\(flightText)' is not a flight number")
                }
                expected = flight
            }
            let resolved = relative.hasPrefix("/") ? relative : (folder as NSString).appendingPathComponent(relative)
            entries.append(Entry(path: resolved, expected: expected, columns: columns))
        }
        columns = names
        self.entries = entries
    }
}
