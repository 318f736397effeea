import FlightCore
import Foundation

/// A connection a CSV import writes through, inside the caller's transaction. Backends provide one primitive and
/// their parameter syntax; every statement of an import is written once, here, so imports behave alike everywhere.
package protocol ScheduleWriting {
    /// The backend's n-th parameter marker: `?1` (SQLite) or `$1` (PostgreSQL).
    static func marker(_ index: Int) -> String
    /// Runs one statement with `values` bound to its parameters and returns its rows as text (nil for NULL).
    /// Values use SQLite's three kinds; PostgreSQL receives them as text.
    func writeStatement(_ sql: String, _ values: [SQLiteValue]) throws -> [[String?]]
}

/// The identity of a movement row: one per airline, number, direction and service date.
package struct MovementKey: Hashable, Sendable {
    let number: FlightNumber
    let direction: FlightDirection
    let serviceDate: String
}

/// The columns of a movement an import sets besides its key.
package struct MovementFields: Sendable {
    let airport: String
    let city: String
    let scheduled: String
    let estimatedOffset: Int?
    let terminal: String?
    let gate: String?
    let belt: String?
    let status: String
}

extension ScheduleWriting {
    private func statement(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[String?]] { try writeStatement(sql, values) }
    private func markers(_ range: ClosedRange<Int>) -> String { range.map(Self.marker).joined(separator: ", ") }

    /// Known statuses and the direction each is limited to (nil: either).
    func statuses() throws -> [String: String?] {
        Dictionary(try statement("SELECT status, direction FROM statuses").map { ($0[0] ?? "", $0[1]) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every airline code in the airlines table.
    func airlineCodes() throws -> Set<String> {
        Set(try statement("SELECT iata FROM airlines").compactMap { $0[0] })
    }

    /// Adds an airline with only its code and name.
    func insertAirline(iata: String, name: String) throws {
        _ = try statement("INSERT INTO airlines (iata, name) VALUES (\(markers(1...2)))", [.text(iata), .text(name)])
    }

    /// The row with `key`, with its gates, or nil.
    func existingMovement(_ key: MovementKey) throws -> (id: Int, gate: String?, previousGate: String?)? {
        let m = Self.marker
        return try statement(
            "SELECT id, gate, previous_gate FROM flights WHERE airline = \(m(1)) AND number = \(m(2)) AND direction = \(m(3)) AND service_date = \(m(4))",
            keyValues(key)
        ).first.map { (id: Int($0[0] ?? "") ?? 0, gate: $0[1], previousGate: $0[2]) }
    }

    /// Overwrites row `id` with `fields` and `previousGate`.
    func updateMovement(id: Int, fields: MovementFields, previousGate: String?) throws {
        let m = Self.marker
        _ = try statement("""
            UPDATE flights SET airport = \(m(1)), city = \(m(2)), scheduled = \(m(3)), estimated_offset = \(m(4)), terminal = \(m(5)),
                gate = \(m(6)), belt = \(m(7)), status = \(m(8)), previous_gate = \(m(9)) WHERE id = \(m(10))
            """, fieldValues(fields) + [.optionalText(previousGate), .integer(Int64(id))])
    }

    /// Adds a movement row and returns its id.
    func insertMovement(_ key: MovementKey, fields: MovementFields) throws -> Int {
        let rows = try statement("""
            INSERT INTO flights (airport, city, scheduled, estimated_offset, terminal, gate, belt, status,
                airline, number, direction, service_date) VALUES (\(markers(1...12))) RETURNING id
            """, fieldValues(fields) + keyValues(key))
        return Int(rows.first?[0] ?? "") ?? 0
    }

    /// Replaces the marketing numbers of movement `id`.
    func replaceCodeshares(ofMovement id: Int, with codeshares: [FlightNumber]) throws {
        _ = try statement("DELETE FROM codeshares WHERE flight_id = \(Self.marker(1))", [.integer(Int64(id))])
        for codeshare in codeshares {
            _ = try statement("INSERT INTO codeshares (flight_id, airline, number) VALUES (\(markers(1...3)))",
                              [.integer(Int64(id)), .text(codeshare.airline), .integer(Int64(codeshare.number))])
        }
    }

    private func keyValues(_ key: MovementKey) -> [SQLiteValue] {
        [.text(key.number.airline), .integer(Int64(key.number.number)), .text(key.direction.rawValue), .text(key.serviceDate)]
    }

    private func fieldValues(_ fields: MovementFields) -> [SQLiteValue] {
        [.text(fields.airport), .text(fields.city), .text(fields.scheduled), .optionalInteger(fields.estimatedOffset),
         .optionalText(fields.terminal), .optionalText(fields.gate), .optionalText(fields.belt), .text(fields.status)]
    }
}

extension SQLiteConnection: ScheduleWriting {
    package func writeStatement(_ sql: String, _ values: [SQLiteValue]) throws -> [[String?]] {
        try query(sql, values) { statement in (0..<statement.columnCount).map { statement.optionalText(at: $0) } }
    }
}
