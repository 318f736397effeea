import FlightCore
import Foundation

/// The reads a flight lookup needs from a database. Each backend answers them with `ScheduleSQL`'s statements, and
/// `ScheduleLookup` applies the lookup rules on top, so SQLite and PostgreSQL answer alike.
package protocol ScheduleReading {
    /// The database as messages name it: a file path or a URL without password.
    var databaseName: String { get }
    /// Rows in the window from `firstDay` to `lastDay` (daily rows always) sold under `number`, each with whether
    /// it was found through a codeshare.
    func movements(soldAs number: FlightNumber, firstDay: String, lastDay: String) throws -> [(row: MovementRow, viaCodeshare: Bool)]
    /// Operating and codeshare numbers of the rows in the window, in any order, maybe repeated.
    func soldNumbers(firstDay: String, lastDay: String) throws -> [FlightNumber]
    /// The airline with IATA code `iata`, or nil.
    func airline(iata: String) throws -> Airline?
    /// The marketing numbers of movement `id`, sorted by airline and number.
    func codeshares(ofMovement id: Int) throws -> [FlightNumber]
    /// Every airline, by IATA code.
    func airlines() throws -> [Airline]
}

/// SQL shared by the backends; `marker(n)` writes the backend's n-th parameter (`?1` for SQLite, `$1` for PostgreSQL).
package enum ScheduleSQL {
    /// The condition (on alias `f`) for rows in the window whose first and last days are parameters `first`, `last`.
    static func windowCondition(first: Int, last: Int, marker: (Int) -> String) -> String {
        "(f.service_date = '\(HubSchedule.daily)' OR f.service_date BETWEEN \(marker(first)) AND \(marker(last)))"
    }

    /// Rows sold under airline `$1` number `$2` in the window `$3`…`$4`, with a last column 0 (operating) or 1 (codeshare).
    package static func movements(marker: (Int) -> String) -> String {
        let window = windowCondition(first: 3, last: 4, marker: marker)
        return """
            SELECT \(MovementRow.columns), 0 FROM flights f
                WHERE f.airline = \(marker(1)) AND f.number = \(marker(2)) AND \(window)
            UNION ALL
            SELECT \(MovementRow.columns), 1 FROM flights f JOIN codeshares c ON c.flight_id = f.id
                WHERE c.airline = \(marker(1)) AND c.number = \(marker(2)) AND \(window)
            """
    }

    /// Airline and number of every operating and codeshare number in the window `$1`…`$2`.
    package static func soldNumbers(marker: (Int) -> String) -> String {
        let window = windowCondition(first: 1, last: 2, marker: marker)
        return """
            SELECT f.airline, f.number FROM flights f WHERE \(window)
            UNION
            SELECT c.airline, c.number FROM codeshares c JOIN flights f ON f.id = c.flight_id WHERE \(window)
            """
    }

    /// The airline with IATA code `$1`.
    package static func airline(marker: (Int) -> String) -> String {
        "SELECT iata, icao, name, callsign, spoken_names FROM airlines WHERE iata = \(marker(1))"
    }

    /// The codeshares of movement `$1`.
    package static func codeshares(marker: (Int) -> String) -> String {
        "SELECT airline, number FROM codeshares WHERE flight_id = \(marker(1)) ORDER BY airline, number"
    }
}

/// The lookup rules of every backend: the instance nearest to now, codeshares, suggestions.
package enum ScheduleLookup {
    /// How far apart two numbers of one airline may be and still be offered as "did you mean".
    package static let nearbyNumberDistance = 10

    /// The movement sold under `number` (operating or codeshare) whose scheduled instant is nearest to `now`.
    /// Daily rows are placed on yesterday, today and tomorrow (hub time); dated rows count within that window only.
    /// On a tie the upcoming instance wins, then the operating number over a codeshare.
    package static func flight(_ number: FlightNumber, near now: Date, in reader: some ScheduleReading) throws -> FlightLookup? {
        try lookup(number, near: now, in: reader)?.lookup
    }

    /// Up to `limit` other flights a traveller may have meant: the same airline's numbers within
    /// `nearbyNumberDistance` or sharing the asked digits as a prefix (4 → 40, 400), closest first by absolute
    /// difference; then the same number at other airlines, by airline code. One entry per movement; never `number`.
    package static func suggestions(for number: FlightNumber, near now: Date, limit: Int, in reader: some ScheduleReading) throws -> [FlightLookup] {
        guard limit > 0 else { return [] }
        let known = try numbers(near: now, in: reader)
        let sameAirline = known
            .filter { $0.airline == number.airline && $0.number != number.number }
            .filter { abs($0.number - number.number) <= nearbyNumberDistance || sharesLeadingDigits($0.number, number.number) }
            .sorted { (abs($0.number - number.number), $0.number) < (abs($1.number - number.number), $1.number) }
        let otherAirlines = known.filter { $0.number == number.number && $0.airline != number.airline }
        var seenMovements = Set<Int>()
        var suggestions: [FlightLookup] = []
        for candidate in sameAirline + otherAirlines where suggestions.count < limit {
            guard let found = try lookup(candidate, near: now, in: reader), seenMovements.insert(found.rowID).inserted else { continue }
            suggestions.append(found.lookup)
        }
        return suggestions
    }

    /// Every operating and codeshare number with a movement from yesterday to tomorrow (daily rows always), sorted, unique.
    package static func numbers(near now: Date, in reader: some ScheduleReading) throws -> [FlightNumber] {
        let window = HubSchedule.window(around: now)
        return Array(Set(try reader.soldNumbers(firstDay: window.first.text, lastDay: window.last.text))).sorted()
    }

    /// True when one number's digits begin the other's: 4 and 40, 4 and 400, 28 and 287.
    package static func sharesLeadingDigits(_ first: Int, _ second: Int) -> Bool {
        let firstDigits = String(first), secondDigits = String(second)
        return firstDigits.hasPrefix(secondDigits) || secondDigits.hasPrefix(firstDigits)
    }

    /// The nearest movement sold under `number`, with its row id (to tell movements apart).
    private static func lookup(_ number: FlightNumber, near now: Date, in reader: some ScheduleReading) throws -> (rowID: Int, lookup: FlightLookup)? {
        let window = HubSchedule.window(around: now)
        let rows = try reader.movements(soldAs: number, firstDay: window.first.text, lastDay: window.last.text)
        let placed = rows.compactMap { candidate -> (row: MovementRow, viaCodeshare: Bool, scheduled: Date)? in
            HubSchedule.nearestInstance(serviceDate: candidate.row.serviceDate, scheduled: candidate.row.scheduled, near: now)
                .map { (candidate.row, candidate.viaCodeshare, $0) }
        }
        let best = placed.min { first, second in
            if first.scheduled != second.scheduled { return HubSchedule.isNearer(first.scheduled, than: second.scheduled, to: now) }
            if first.viaCodeshare != second.viaCodeshare { return !first.viaCodeshare }
            return first.row.id < second.row.id
        }
        guard let best else { return nil }
        let flight = try flight(from: best.row, scheduled: best.scheduled, in: reader)
        return (best.row.id, FlightLookup(requested: number, flight: flight))
    }

    /// An airline from its stored columns; spoken names are split on "|" with empty pieces dropped.
    package static func airline(iata: String, icao: String?, name: String, callsign: String?, spokenNames: String) -> Airline {
        Airline(iata: iata, icao: icao, name: name, callsign: callsign,
                spokenNames: spokenNames.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// The domain value for a row placed at `scheduled`, with its airline and codeshares.
    private static func flight(from row: MovementRow, scheduled: Date, in reader: some ScheduleReading) throws -> Flight {
        func invalid(_ reason: String) -> FlightStoreError { .invalidData(path: reader.databaseName, reason: "flight row \(row.id): \(reason)") }
        guard let number = FlightNumber(airline: row.airline, number: row.number) else { throw invalid("\(row.airline)\(row.number) is not a flight number") }
        guard let direction = FlightDirection(rawValue: row.direction) else { throw invalid("unknown direction '\(row.direction)'") }
        guard let status = FlightStatus(rawValue: row.status) else { throw invalid("unknown status '\(row.status)'") }
        guard let airline = try reader.airline(iata: row.airline) else { throw invalid("airline \(row.airline) is not in the airlines table") }
        return Flight(
            number: number, airline: airline, direction: direction, airport: Airport(iata: row.airport, city: row.city),
            scheduled: scheduled, estimated: row.estimatedOffset.map { scheduled.addingTimeInterval(TimeInterval($0 * 60)) },
            terminal: row.terminal, gate: row.gate, previousGate: row.previousGate, belt: row.belt,
            status: status, codeshares: try reader.codeshares(ofMovement: row.id)
        )
    }
}
