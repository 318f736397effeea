import FlightCore
import Foundation

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

/// The statements of a CSV import, written once for every backend; run inside the caller's transaction.
extension ScheduleDatabase {
    /// Runs a statement whose rows (if any) are not needed.
    package func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
        _ = try rows(sql, values) { _ in () }
    }
    private func markers(_ range: ClosedRange<Int>) -> String { range.map(Self.marker).joined(separator: ", ") }

    /// Known statuses and the direction each is limited to (nil: either).
    func statuses() throws -> [String: String?] {
        Dictionary(try rows("SELECT status, direction FROM statuses", []) { ($0.text(column: 0), $0.optionalText(column: 1)) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// Every airline code in the airlines table.
    func airlineCodes() throws -> Set<String> {
        Set(try rows("SELECT iata FROM airlines", []) { $0.text(column: 0) })
    }

    /// Adds an airline with only its code and name.
    func insertAirline(iata: String, name: String) throws {
        try run("INSERT INTO airlines (iata, name) VALUES (\(markers(1...2)))", [.text(iata), .text(name)])
    }

    /// The row with `key`, with its gates, or nil.
    func existingMovement(_ key: MovementKey) throws -> (id: Int, gate: String?, previousGate: String?)? {
        let m = Self.marker
        return try rows(
            "SELECT id, gate, previous_gate FROM flights WHERE airline = \(m(1)) AND number = \(m(2)) AND direction = \(m(3)) AND service_date = \(m(4))",
            keyValues(key)
        ) { (id: $0.integer(column: 0), gate: $0.optionalText(column: 1), previousGate: $0.optionalText(column: 2)) }.first
    }

    /// Overwrites row `id` with `fields` and `previousGate`.
    func updateMovement(id: Int, fields: MovementFields, previousGate: String?) throws {
        let m = Self.marker
        try run("""
            UPDATE flights SET airport = \(m(1)), city = \(m(2)), scheduled = \(m(3)), estimated_offset = \(m(4)), terminal = \(m(5)),
                gate = \(m(6)), belt = \(m(7)), status = \(m(8)), previous_gate = \(m(9)) WHERE id = \(m(10))
            """, fieldValues(fields) + [.optionalText(previousGate), .integer(Int64(id))])
    }

    /// Adds a movement row and returns its id.
    func insertMovement(_ key: MovementKey, fields: MovementFields) throws -> Int {
        try rows("""
            INSERT INTO flights (airport, city, scheduled, estimated_offset, terminal, gate, belt, status,
                airline, number, direction, service_date) VALUES (\(markers(1...12))) RETURNING id
            """, fieldValues(fields) + keyValues(key)) { $0.integer(column: 0) }.first ?? 0
    }

    /// Replaces the marketing numbers of movement `id`.
    func replaceCodeshares(ofMovement id: Int, with codeshares: [FlightNumber]) throws {
        try run("DELETE FROM codeshares WHERE flight_id = \(Self.marker(1))", [.integer(Int64(id))])
        for codeshare in codeshares {
            try run("INSERT INTO codeshares (flight_id, airline, number) VALUES (\(markers(1...3)))",
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
