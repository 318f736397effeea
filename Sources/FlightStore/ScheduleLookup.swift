import FlightCore
import Foundation

/// A result row as every backend reads it, so rows are decoded once for all of them. Columns count from 0.
package protocol ScheduleRow {
    /// Column `index` as text; NULL reads as "".
    func text(column index: Int) -> String
    /// Column `index` as text, nil for NULL.
    func optionalText(column index: Int) -> String?
    /// Column `index` as an integer; NULL reads as 0.
    func integer(column index: Int) -> Int
    /// Column `index` as an integer, nil for NULL.
    func optionalInteger(column index: Int) -> Int?
}

/// A connection to a flight database, reduced to what the shared rules need: running one statement with
/// parameters and reading its rows. `ScheduleLookup`, `CSVImportPlan` and `ScheduleSnapshot` are written once on top,
/// with `ScheduleSQL`'s statements, so SQLite and PostgreSQL answer, import and copy alike.
package protocol ScheduleDatabase {
    /// The backend's n-th parameter marker: `?1` (SQLite) or `$1` (PostgreSQL).
    static func marker(_ index: Int) -> String
    /// The database as messages name it: a file path or a URL without password.
    var databaseName: String { get }
    /// Runs one statement with `values` bound to its parameters (PostgreSQL receives them as text) and reads each row.
    func rows<Row>(_ sql: String, _ values: [SQLiteValue], read: (any ScheduleRow) throws -> Row) throws -> [Row]
}

extension ScheduleDatabase {
    /// Rows in the window from `firstDay` to `lastDay` (daily rows always) sold under `number`, each with whether
    /// it was found through a codeshare.
    func movements(soldAs number: FlightNumber, firstDay: String, lastDay: String) throws -> [(row: MovementRow, viaCodeshare: Bool)] {
        try rows(ScheduleSQL.movements(marker: Self.marker),
                 [.text(number.airline), .integer(Int64(number.number)), .text(firstDay), .text(lastDay)]) { row in
            (row: MovementRow(row), viaCodeshare: row.integer(column: 14) == 1)
        }
    }

    /// Operating and codeshare numbers of the rows in the window, in any order, maybe repeated.
    func soldNumbers(firstDay: String, lastDay: String) throws -> [FlightNumber] {
        try rows(ScheduleSQL.soldNumbers(marker: Self.marker), [.text(firstDay), .text(lastDay)], read: Self.flightNumber(from:)).compactMap { $0 }
    }

    /// The airline with IATA code `iata`, or nil.
    func airline(iata: String) throws -> Airline? {
        try rows(ScheduleSQL.airline(marker: Self.marker), [.text(iata)], read: ScheduleLookup.airline(from:)).first
    }

    /// The marketing numbers of movement `id`, sorted by airline and number.
    func codeshares(ofMovement id: Int) throws -> [FlightNumber] {
        try rows(ScheduleSQL.codeshares(marker: Self.marker), [.integer(Int64(id))], read: Self.flightNumber(from:)).compactMap { $0 }
    }

    /// Every airline, by IATA code.
    package func airlines() throws -> [Airline] {
        try rows(ScheduleSnapshot.airlineQuery, [], read: ScheduleLookup.airline(from:))
    }

    /// Every row of the four tables (call inside a transaction for one consistent view).
    package func snapshot() throws -> ScheduleSnapshot {
        ScheduleSnapshot(
            airlines: try rows(ScheduleSnapshot.airlineQuery, []) {
                .init(iata: $0.text(column: 0), icao: $0.optionalText(column: 1), name: $0.text(column: 2), callsign: $0.optionalText(column: 3),
                      spokenNames: $0.text(column: 4))
            },
            statuses: try rows(ScheduleSnapshot.statusQuery, []) {
                .init(status: $0.text(column: 0), direction: $0.optionalText(column: 1), description: $0.text(column: 2))
            },
            movements: try rows(ScheduleSnapshot.movementQuery, [], read: MovementRow.init),
            codeshares: try rows(ScheduleSnapshot.codeshareQuery, []) {
                .init(flightID: $0.integer(column: 0), airline: $0.text(column: 1), number: $0.integer(column: 2))
            }
        )
    }

    /// Deletes every row of the four tables and writes `snapshot`'s (call inside a transaction).
    package func replaceRows(with snapshot: ScheduleSnapshot) throws {
        for table in ScheduleSnapshot.tablesInDeletionOrder { try run("DELETE FROM \(table)") }
        for statement in ScheduleSnapshot.insertions(of: snapshot, marker: Self.marker) { try run(statement.sql, statement.values) }
    }

    /// A flight number from columns `airline, number`.
    private static func flightNumber(from row: any ScheduleRow) -> FlightNumber? {
        FlightNumber(airline: row.text(column: 0), number: row.integer(column: 1))
    }
}

extension MovementRow {
    /// Reads the columns in `MovementRow.columns` order.
    init(_ row: any ScheduleRow) {
        self.init(id: row.integer(column: 0), airline: row.text(column: 1), number: row.integer(column: 2), direction: row.text(column: 3),
                  airport: row.text(column: 4), city: row.text(column: 5), serviceDate: row.text(column: 6), scheduled: row.text(column: 7),
                  estimatedOffset: row.optionalInteger(column: 8), terminal: row.optionalText(column: 9), gate: row.optionalText(column: 10),
                  previousGate: row.optionalText(column: 11), belt: row.optionalText(column: 12), status: row.text(column: 13))
    }
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
    package static func flight(_ number: FlightNumber, near now: Date, in reader: some ScheduleDatabase) throws -> FlightLookup? {
        try lookup(number, near: now, in: reader)?.lookup
    }

    /// Up to `limit` other flights a traveller may have meant: the same airline's numbers within
    /// `nearbyNumberDistance` or sharing the asked digits as a prefix (4 → 40, 400), closest first by absolute
    /// difference; then the same number at other airlines, by airline code. One entry per movement; never `number`.
    package static func suggestions(for number: FlightNumber, near now: Date, limit: Int, in reader: some ScheduleDatabase) throws -> [FlightLookup] {
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
    package static func numbers(near now: Date, in reader: some ScheduleDatabase) throws -> [FlightNumber] {
        let window = HubSchedule.window(around: now)
        return Array(Set(try reader.soldNumbers(firstDay: window.first.text, lastDay: window.last.text))).sorted()
    }

    /// True when one number's digits begin the other's: 4 and 40, 4 and 400, 28 and 287.
    package static func sharesLeadingDigits(_ first: Int, _ second: Int) -> Bool {
        let firstDigits = String(first), secondDigits = String(second)
        return firstDigits.hasPrefix(secondDigits) || secondDigits.hasPrefix(firstDigits)
    }

    /// The nearest movement sold under `number`, with its row id (to tell movements apart).
    private static func lookup(_ number: FlightNumber, near now: Date, in reader: some ScheduleDatabase) throws -> (rowID: Int, lookup: FlightLookup)? {
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

    /// An airline from a row of `iata, icao, name, callsign, spoken_names`; spoken names are split on "|" with empty
    /// pieces dropped.
    static func airline(from row: any ScheduleRow) -> Airline {
        Airline(iata: row.text(column: 0), icao: row.optionalText(column: 1), name: row.text(column: 2), callsign: row.optionalText(column: 3),
                spokenNames: row.text(column: 4).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// The domain value for a row placed at `scheduled`, with its airline and codeshares.
    private static func flight(from row: MovementRow, scheduled: Date, in reader: some ScheduleDatabase) throws -> Flight {
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
