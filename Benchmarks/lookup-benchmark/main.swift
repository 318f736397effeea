// Flight lookups per second against each database given: how much a shared PostgreSQL costs over the local SQLite file.
//
//   lookup-benchmark [--seconds N] DATABASE...      DATABASE: a SQLite path or a postgres:// URL
//
// Each database is opened as the CLI opens it (created or migrated as needed), then one caller looks up every flight
// number of the day in turn (operating and codeshare numbers, as `ask` and the recognizer do) for N seconds after a
// one-second warm-up. Prints lookups per second and the mean time of one lookup.
import FlightCore
import FlightStore
import FlightStoreSelection
import Foundation

/// How long each database is measured unless --seconds says otherwise.
let defaultSeconds = 5.0
/// Untimed lookups first, so connections, caches and the server's plans are warm.
let warmUpSeconds = 1.0

var arguments = Array(CommandLine.arguments.dropFirst())
var seconds = defaultSeconds
if let index = arguments.firstIndex(of: "--seconds"), index + 1 < arguments.count, let value = Double(arguments[index + 1]), value > 0 {
    seconds = value
    arguments.removeSubrange(index...index + 1)
}
guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else {
    FileHandle.standardError.write(Data("usage: lookup-benchmark [--seconds N] DATABASE...   (a SQLite path or a postgres:// URL)\n".utf8))
    exit(64)
}

/// Looks up `numbers` round-robin until `duration` has passed; returns how many lookups ran and how many found a flight.
func lookUp(_ numbers: [FlightNumber], in store: any FlightDatabase, now: Date, for duration: Double) throws -> (count: Int, found: Int) {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(duration * 1000)))
    var count = 0, found = 0
    while clock.now < deadline {
        if try store.flight(numbers[count % numbers.count], near: now) != nil { found += 1 }
        count += 1
    }
    return (count, found)
}

print("backend     lookups/s   µs/lookup   numbers   database")
for argument in arguments {
    let location = FlightDatabaseLocation.resolve(database: argument, path: nil, environment: [:])
    do {
        let store = try location.open()
        let now = Date()
        let numbers = try store.flightNumbers(near: now)
        guard !numbers.isEmpty else { throw FlightStoreError.invalidData(path: location.description, reason: "no flights today") }
        _ = try lookUp(numbers, in: store, now: now, for: warmUpSeconds)
        let clock = ContinuousClock()
        let start = clock.now
        let (count, found) = try lookUp(numbers, in: store, now: now, for: seconds)
        let elapsed = (clock.now - start) / .seconds(1)
        guard found == count else { throw FlightStoreError.invalidData(path: location.description, reason: "\(count - found) lookups found nothing") }
        let backend: String
        switch location {
        case .sqlite: backend = "sqlite"
        case .postgres: backend = "postgresql"
        }
        let padded = backend.padding(toLength: 10, withPad: " ", startingAt: 0)
        print(padded + String(format: "  %9.0f   %9.1f   %7d   ", Double(count) / elapsed, elapsed / Double(count) * 1e6, numbers.count)
              + location.description)
    } catch {
        FileHandle.standardError.write(Data("lookup-benchmark: \(location): \(error)\n".utf8))
        exit(74)
    }
}
