import FlightCore
import Foundation

extension FlightStore {
    /// How far apart two numbers of one airline may be and still be offered as "did you mean".
    public static let nearbyNumberDistance = 10

    /// The movement sold under `number` (operating or codeshare) whose scheduled instant is nearest to `now`.
    /// Daily rows are placed on yesterday, today and tomorrow (hub time); dated rows count within that window only.
    /// On a tie the upcoming instance wins, then the operating number over a codeshare.
    public func flight(_ number: FlightNumber, near now: Date) throws -> FlightLookup? {
        try withConnection { database in try Self.lookup(number, near: now, in: database).map(\.lookup) }
    }

    /// Up to `limit` other flights a traveller may have meant: the same airline's numbers within
    /// `nearbyNumberDistance` or sharing the asked digits as a prefix (4 → 40, 400), closest first by absolute
    /// difference; then the same number at other airlines, by airline code. One entry per movement; never `number`.
    public func suggestions(for number: FlightNumber, near now: Date, limit: Int) throws -> [FlightLookup] {
        guard limit > 0 else { return [] }
        return try withConnection { database in
            let known = try Self.numbers(near: now, in: database)
            let sameAirline = known
                .filter { $0.airline == number.airline && $0.number != number.number }
                .filter { abs($0.number - number.number) <= Self.nearbyNumberDistance || Self.sharesLeadingDigits($0.number, number.number) }
                .sorted { (abs($0.number - number.number), $0.number) < (abs($1.number - number.number), $1.number) }
            let otherAirlines = known.filter { $0.number == number.number && $0.airline != number.airline }
            var seenMovements = Set<Int>()
            var suggestions: [FlightLookup] = []
            for candidate in sameAirline + otherAirlines where suggestions.count < limit {
                guard let found = try Self.lookup(candidate, near: now, in: database),
                      seenMovements.insert(found.rowID).inserted
                else { continue }
                suggestions.append(found.lookup)
            }
            return suggestions
        }
    }

    /// Every operating and codeshare number with a movement from yesterday to tomorrow (daily rows always), sorted.
    public func flightNumbers(near now: Date) throws -> [FlightNumber] {
        try withConnection { database in try Self.numbers(near: now, in: database) }
    }

    /// The airlines table as a directory; spoken names are split on "|" with empty pieces dropped.
    public func airlineDirectory() throws -> AirlineDirectory {
        try withConnection { database in
            AirlineDirectory(try database.query("SELECT iata, icao, name, callsign, spoken_names FROM airlines ORDER BY iata") { Self.airline(from: $0) })
        }
    }

    // MARK: - Queries on the confined connection

    /// The SQL condition (on table alias `f`) for rows in the lookup window, whose first and last days are bound
    /// to parameters `?first` and `?last`.
    private static func windowCondition(first: Int, last: Int) -> String {
        "(f.service_date = '\(HubSchedule.daily)' OR f.service_date BETWEEN ?\(first) AND ?\(last))"
    }

    /// The columns `movement(from:)` reads, on table alias `f`.
    private static let movementColumns = """
        f.id, f.airline, f.number, f.direction, f.airport, f.city, f.service_date, f.scheduled, f.estimated_offset,
        f.terminal, f.gate, f.previous_gate, f.belt, f.status
        """

    /// The nearest movement sold under `number`, with its row id (to tell movements apart).
    static func lookup(_ number: FlightNumber, near now: Date, in database: SQLiteConnection) throws -> (rowID: Int, lookup: FlightLookup)? {
        let window = HubSchedule.window(around: now)
        let parameters: [SQLiteValue] = [.text(number.airline), .integer(Int64(number.number)), .text(window.first.text), .text(window.last.text)]
        let rows = try database.query("""
            SELECT \(movementColumns), 0 FROM flights f
                WHERE f.airline = ?1 AND f.number = ?2 AND \(windowCondition(first: 3, last: 4))
            UNION ALL
            SELECT \(movementColumns), 1 FROM flights f JOIN codeshares c ON c.flight_id = f.id
                WHERE c.airline = ?1 AND c.number = ?2 AND \(windowCondition(first: 3, last: 4))
            """, parameters) { statement in
            (row: MovementRow(statement), viaCodeshare: statement.integer(at: 14) == 1)
        }
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
        let flight = try flight(from: best.row, scheduled: best.scheduled, in: database)
        return (best.row.id, FlightLookup(requested: number, flight: flight))
    }

    /// Sorted, unique operating and codeshare numbers of rows in the window around `now`.
    static func numbers(near now: Date, in database: SQLiteConnection) throws -> [FlightNumber] {
        let window = HubSchedule.window(around: now)
        let numbers = try database.query("""
            SELECT f.airline, f.number FROM flights f WHERE \(windowCondition(first: 1, last: 2))
            UNION
            SELECT c.airline, c.number FROM codeshares c JOIN flights f ON f.id = c.flight_id WHERE \(windowCondition(first: 1, last: 2))
            """, [.text(window.first.text), .text(window.last.text)]) { FlightNumber(airline: $0.text(at: 0), number: $0.integer(at: 1)) }
        return Array(Set(numbers.compactMap { $0 })).sorted()
    }

    /// True when one number's digits begin the other's: 4 and 40, 4 and 400, 28 and 287.
    static func sharesLeadingDigits(_ first: Int, _ second: Int) -> Bool {
        let firstDigits = String(first), secondDigits = String(second)
        return firstDigits.hasPrefix(secondDigits) || secondDigits.hasPrefix(firstDigits)
    }

    /// An airline from a row of `iata, icao, name, callsign, spoken_names`.
    static func airline(from statement: SQLiteStatement) -> Airline {
        Airline(
            iata: statement.text(at: 0),
            icao: statement.optionalText(at: 1),
            name: statement.text(at: 2),
            callsign: statement.optionalText(at: 3),
            spokenNames: statement.text(at: 4).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        )
    }

    /// The domain value for a row placed at `scheduled`, with its airline and codeshares.
    private static func flight(from row: MovementRow, scheduled: Date, in database: SQLiteConnection) throws -> Flight {
        func invalid(_ reason: String) -> FlightStoreError { .invalidData(path: database.path, reason: "flight row \(row.id): \(reason)") }
        guard let number = FlightNumber(airline: row.airline, number: row.number) else { throw invalid("\(row.airline)\(row.number) is not a flight number") }
        guard let direction = FlightDirection(rawValue: row.direction) else { throw invalid("unknown direction '\(row.direction)'") }
        guard let status = FlightStatus(rawValue: row.status) else { throw invalid("unknown status '\(row.status)'") }
        guard let airline = try database.query(
            "SELECT iata, icao, name, callsign, spoken_names FROM airlines WHERE iata = ?1", [.text(row.airline)], read: airline(from:)
        ).first else { throw invalid("airline \(row.airline) is not in the airlines table") }
        let codeshares = try database.query(
            "SELECT airline, number FROM codeshares WHERE flight_id = ?1 ORDER BY airline, number", [.integer(Int64(row.id))]
        ) { FlightNumber(airline: $0.text(at: 0), number: $0.integer(at: 1)) }.compactMap { $0 }
        return Flight(
            number: number, airline: airline, direction: direction, airport: Airport(iata: row.airport, city: row.city),
            scheduled: scheduled, estimated: row.estimatedOffset.map { scheduled.addingTimeInterval(TimeInterval($0 * 60)) },
            terminal: row.terminal, gate: row.gate, previousGate: row.previousGate, belt: row.belt,
            status: status, codeshares: codeshares
        )
    }
}

/// One row of the flights table, as stored.
struct MovementRow {
    let id: Int
    let airline: String
    let number: Int
    let direction: String
    let airport: String
    let city: String
    let serviceDate: String
    let scheduled: String
    let estimatedOffset: Int?
    let terminal: String?
    let gate: String?
    let previousGate: String?
    let belt: String?
    let status: String

    /// Reads the columns in `FlightStore.movementColumns` order.
    init(_ statement: SQLiteStatement) {
        id = statement.integer(at: 0)
        airline = statement.text(at: 1)
        number = statement.integer(at: 2)
        direction = statement.text(at: 3)
        airport = statement.text(at: 4)
        city = statement.text(at: 5)
        serviceDate = statement.text(at: 6)
        scheduled = statement.text(at: 7)
        estimatedOffset = statement.optionalInteger(at: 8)
        terminal = statement.optionalText(at: 9)
        gate = statement.optionalText(at: 10)
        previousGate = statement.optionalText(at: 11)
        belt = statement.optionalText(at: 12)
        status = statement.text(at: 13)
    }
}
