import Foundation

/// Where flights come from. Implementations must be safe to call from any task.
public protocol FlightsDataSource: Sendable {
    /// The movement sold under `number` (operating or codeshare) whose scheduled time is nearest to `now`, or nil.
    func flight(_ number: FlightNumber, near now: Date) throws -> FlightLookup?
    /// Up to `limit` flights a traveller may have meant instead of `number`: same airline with nearby numbers,
    /// then the same number at other airlines.
    func suggestions(for number: FlightNumber, near now: Date, limit: Int) throws -> [FlightLookup]
    /// Every number (operating and codeshare) that has a movement today: the vocabulary a recognizer listens for.
    func flightNumbers(near now: Date) throws -> [FlightNumber]
    /// The airlines known to the data source, with their codes and spoken names.
    func airlineDirectory() throws -> AirlineDirectory
}
