/// A flight designator: a two-character IATA airline code and a number from 1 to 9999 (e.g. `LX40`, `U21234`, `4U812`).
public struct FlightNumber: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The IATA airline designator, upper case: two letters, or a letter and a digit in either order ("U2", "4U").
    public let airline: String
    /// The flight number without leading zeros, 1...9999.
    public let number: Int

    /// The largest number a flight designator can carry (four digits).
    public static let maximumNumber = 9999

    /// Creates a flight number, or nil when the airline code or number is out of form.
    public init?(airline: String, number: Int) {
        let code = airline.uppercased()
        guard Self.isValidAirlineCode(code), (1...Self.maximumNumber).contains(number) else { return nil }
        self.airline = code
        self.number = number
    }

    /// Parses a written designator: "LX40", "lx 040", "LX-40", "LX 0040", "U21234", "4U 812".
    public init?(parsing text: String) {
        let compact = text.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard compact.count >= 3, compact.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        let code = String(compact.prefix(2))
        let digits = compact.dropFirst(2)
        guard digits.count <= 4 + 2, digits.allSatisfy(\.isNumber), let number = Int(digits) else { return nil }
        self.init(airline: code, number: number)
    }

    /// `LX40`: the canonical form, used in JSON and as a database key.
    public var canonical: String { "\(airline)\(number)" }
    /// `LX 40`: the form printed for people.
    public var display: String { "\(airline) \(number)" }
    public var description: String { canonical }

    /// True for a two-character code of letters and digits with at least one letter.
    public static func isValidAirlineCode(_ code: String) -> Bool {
        code.count == 2 && code.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) } && code.contains(where: \.isLetter)
    }

    public static func < (lhs: FlightNumber, rhs: FlightNumber) -> Bool {
        (lhs.airline, lhs.number) < (rhs.airline, rhs.number)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = FlightNumber(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a flight number: \(text)"))
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonical)
    }
}
