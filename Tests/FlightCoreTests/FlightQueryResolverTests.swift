import Foundation
import Testing
@testable import FlightCore

/// A data source of a fixed list of flights: enough to pin down the resolver's decisions.
private struct FixedFlights: FlightsDataSource {
    let flights: [Flight]

    func flight(_ number: FlightNumber, near now: Date) throws -> FlightLookup? {
        flights.first { $0.number == number || $0.codeshares.contains(number) }.map { FlightLookup(requested: number, flight: $0) }
    }
    func suggestions(for number: FlightNumber, near now: Date, limit: Int) throws -> [FlightLookup] {
        Array(flights.filter { $0.number.airline == number.airline }.prefix(limit).map { FlightLookup(requested: $0.number, flight: $0) })
    }
    func flightNumbers(near now: Date) throws -> [FlightNumber] { flights.map(\.number) }
    func airlineDirectory() throws -> AirlineDirectory { AirlineDirectory(flights.map(\.airline)) }
}

@Suite struct FlightQueryResolverTests {
    static let swiss = Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss")
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func flight(_ code: String, codeshares: [String] = []) -> Flight {
        Flight(
            number: FlightNumber(parsing: code)!, airline: swiss, direction: .departure,
            airport: Airport(iata: "JFK", city: "New York"), scheduled: now, estimated: now, terminal: "E",
            gate: "E34", previousGate: nil, belt: nil, status: .boarding, codeshares: codeshares.compactMap(FlightNumber.init(parsing:)))
    }

    let resolver = FlightQueryResolver(
        normalizer: SpokenFlightNormalizer(airlines: AirlineDirectory([swiss])),
        flights: FixedFlights(flights: [flight("LX40", codeshares: ["UA9701"]), flight("LX42")]))

    @Test func answersAFlightThatFliesToday() throws {
        let answer = try resolver.answer("LX40", now: Self.now)
        #expect(answer.status == .found)
        #expect(answer.lookup?.flight.gate == "E34")
        #expect(answer.flightNumber?.canonical == "LX40")
    }

    @Test func findsTheOperatingFlightOfACodeshare() throws {
        let answer = try resolver.answer("UA9701", now: Self.now)
        #expect(answer.status == .found)
        #expect(answer.lookup?.flight.number.canonical == "LX40")
        #expect(answer.lookup?.isCodeshare == true)
    }

    @Test func suggestsNeighboursForAFlightNotFlyingToday() throws {
        let answer = try resolver.answer("LX41", now: Self.now)
        #expect(answer.status == .notFound)
        #expect(answer.flightNumber?.canonical == "LX41")
        #expect(answer.suggestions.map(\.flight.number.canonical) == ["LX40", "LX42"])
    }

    @Test func refusesTextThatIsNoFlightNumber() throws {
        let answer = try resolver.answer("", now: Self.now)
        #expect(answer.status == .notUnderstood)
        #expect(answer.lookup == nil)
        #expect(answer.message != nil)
    }

    @Test func answersAWeakerReadingOnlyWhenItIsCloseToTheBest() throws {
        let unknown = FlightCandidate(flight: FlightNumber(parsing: "LX41")!, score: 1, readings: [])
        let close = FlightCandidate(flight: FlightNumber(parsing: "LX40")!, score: 0.6, readings: [])
        let far = FlightCandidate(flight: FlightNumber(parsing: "LX40")!, score: 0.2, readings: [])
        #expect(try resolver.answer(heard: "", candidates: [unknown, close], now: Self.now).status == .found)
        #expect(try resolver.answer(heard: "", candidates: [unknown, far], now: Self.now).status == .notFound)
    }

    @Test func confirmationOffersTheFlightsHeard() throws {
        let answer = try resolver.confirmation(
            heard: "l x forty", options: [FlightNumber(parsing: "LX40")!, FlightNumber(parsing: "LX42")!],
            candidates: [], now: Self.now, message: "did you mean")
        #expect(answer.status == .notUnderstood)
        #expect(answer.suggestions.count == 2)
    }
}
