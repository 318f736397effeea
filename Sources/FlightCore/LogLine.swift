/// One log line in logfmt: `key=value` pairs separated by spaces, a value quoted when it holds a space, a quote or
/// an equals sign.
///
/// Every front end (the service's per-request line, the kiosk's and `listen`'s per-query line, the start-up line)
/// writes this one format to standard error: one event per line, so journald keeps each as one entry, `grep
/// status=500` finds them without a JSON parser, and a person can still read them. Never put audio, tokens or
/// `Authorization` headers in a line: the callers pass only the fields listed at each call site.
public struct LogLine: Sendable, Equatable, CustomStringConvertible {
    /// The fields, in the order they are written.
    public private(set) var fields: [(key: String, value: String)] = []

    /// A line starting with `event=EVENT`.
    public init(event: String) {
        fields.append((key: "event", value: event))
    }

    /// Appends `key=value`; a nil value is left out.
    public mutating func append(_ key: String, _ value: String?) {
        guard let value else { return }
        fields.append((key: key, value: value))
    }

    /// The line with `key=value` appended.
    public func with(_ key: String, _ value: String?) -> LogLine {
        var line = self
        line.append(key, value)
        return line
    }

    /// The line as written, without a newline.
    public var description: String {
        fields.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
    }

    public static func == (left: LogLine, right: LogLine) -> Bool { left.description == right.description }

    /// `value` as logfmt writes it: bare when it is a plain word, else in double quotes with `\` and `"` escaped and
    /// control characters (a newline would split the line) written as `\n`, `\t` or `\u{…}`.
    static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.unicodeScalars.contains { scalar in
            scalar == " " || scalar == "\"" || scalar == "=" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
        }
        guard needsQuotes else { return value }
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: text += "\\u{\(String(scalar.value, radix: 16))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

extension LogLine {
    /// A query's line (kiosk, `listen`): where it came from, the words heard, the answer, and how long the audio and
    /// its decoding took. Never the audio itself.
    public static func query(_ answer: QueryAnswer, source: String, audioSeconds: Double? = nil, decodeSeconds: Double? = nil) -> LogLine {
        var line = LogLine(event: "query")
        line.append("source", source)
        line.append("status", answer.status.rawValue)
        line.append("flight", answer.flightNumber?.canonical)
        line.append("heard", answer.heard)
        line.append("audio_s", audioSeconds.map { formatted($0) })
        line.append("decode_s", decodeSeconds.map { formatted($0) })
        return line
    }

    /// Seconds with two decimals, without Foundation.
    private static func formatted(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
