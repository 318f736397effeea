/// An airline as travellers and displays name it.
public struct Airline: Hashable, Sendable, Codable {
    /// IATA designator, e.g. "LX".
    public let iata: String
    /// ICAO designator, e.g. "SWR"; nil when unknown.
    public let icao: String?
    /// Display name, e.g. "Swiss".
    public let name: String
    /// Radio callsign, e.g. "Swiss" or "Speedbird"; nil when unknown.
    public let callsign: String?
    /// Further names people say for it, lower case, e.g. ["swiss air", "swiss international"].
    public let spokenNames: [String]

    public init(iata: String, icao: String?, name: String, callsign: String?, spokenNames: [String] = []) {
        self.iata = iata.uppercased()
        self.icao = icao?.uppercased()
        self.name = name
        self.callsign = callsign
        self.spokenNames = spokenNames
    }

    /// Every phrase that names this airline, lower case: name, callsign and spoken names, without duplicates.
    public var allSpokenNames: [String] {
        var seen = Set<String>()
        return ([name] + [callsign].compactMap { $0 } + spokenNames)
            .map { $0.lowercased() }
            .filter { seen.insert($0).inserted }
    }
}

/// The airlines the system knows, searchable by IATA code, ICAO code and spoken name.
public struct AirlineDirectory: Sendable {
    public let airlines: [Airline]
    private let byIATA: [String: Airline]
    private let byICAO: [String: Airline]

    public init(_ airlines: [Airline]) {
        self.airlines = airlines
        byIATA = Dictionary(airlines.map { ($0.iata, $0) }, uniquingKeysWith: { first, _ in first })
        byICAO = Dictionary(airlines.compactMap { airline in airline.icao.map { ($0, airline) } }, uniquingKeysWith: { first, _ in first })
    }

    public func airline(iata code: String) -> Airline? { byIATA[code.uppercased()] }
    public func airline(icao code: String) -> Airline? { byICAO[code.uppercased()] }
}
