import FlightCore
import Foundation

/// A CSV import that was refused: the 1-based line, the column and what is wrong. Nothing was written.
public struct CSVImportError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file the CSV came from, when it came from a file.
    public var file: String?
    /// The 1-based line of the file where the offending record starts (1 is the header).
    public let line: Int
    /// The column at fault, e.g. "status"; nil when the whole record or the file's structure is at fault.
    public let column: String?
    /// What is wrong and what is expected, e.g. "'boarded' is not a status; known: …".
    public let problem: String

    /// Creates an error; the importer fills in `file` when it read one.
    public init(file: String? = nil, line: Int, column: String?, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// "flights.csv:3: column status: 'boarded' is not a status; …".
    public var description: String {
        let place = file.map { "\($0):\(line)" } ?? "line \(line)"
        return column.map { "\(place): column \($0): \(problem)" } ?? "\(place): \(problem)"
    }
}

/// What a CSV import changed.
public struct CSVImportSummary: Sendable, Hashable, Codable {
    /// Rows added to the flights table.
    public let inserted: Int
    /// Existing rows (same airline, number, direction and service date) replaced in place.
    public let updated: Int
    /// IATA codes added to the airlines table because the CSV used them, in order of first use.
    public let airlinesAdded: [String]

    /// Creates a summary; `FlightStore.importCSV` is the usual source.
    public init(inserted: Int, updated: Int, airlinesAdded: [String]) {
        self.inserted = inserted
        self.updated = updated
        self.airlinesAdded = airlinesAdded
    }
}

/// The columns of an import file; the header names each exactly once, in any order.
enum CSVColumn: String, CaseIterable {
    case flight, airline, direction, airport, city, scheduled, estimated, terminal, gate, belt, status, codeshares
}

extension FlightStore {
    /// The header columns an import file must have, each exactly once, in any order.
    public static let csvColumns = CSVColumn.allCases.map(\.rawValue)

    /// Imports flights from CSV text in one transaction (see `CSVImportPlan` for the rules); any bad row throws
    /// `CSVImportError` and nothing is written.
    public func importCSV(text: String, now: Date) throws -> CSVImportSummary {
        let plan = try CSVImportPlan(text: text)
        return try withConnection { database in try database.transaction { try plan.apply(to: database, now: now) } }
    }
}

/// A parsed import file, ready to be applied to any backend inside its transaction.
///
/// Every row is inserted, or updates the row with the same airline, number, direction and service date (codeshares
/// replaced); any bad row throws `CSVImportError`. Times are hub-local `HH:MM` (stored as a daily row, like the seed)
/// or ISO 8601 with a UTC offset (stored on its hub-local date). `now` is the day an `HH:MM` schedule is measured on
/// when the estimate is a full ISO time. An `HH:MM` estimate more than 12 hours before (after) the schedule falls on
/// the next (previous) day. An airline code the table lacks is added, named by the `airline` column (a codeshare's by
/// its code); known airlines keep their names. A changed gate is kept as the previous gate.
package struct CSVImportPlan: Sendable {
    let records: [CSVRecord]
    let columns: [CSVColumn: Int]

    /// Reads the CSV and its header; throws `CSVImportError` for a malformed file or header.
    package init(text: String) throws {
        let records = try CSVReader.records(in: text)
        guard let header = records.first else {
            throw CSVImportError(line: 1, column: nil, problem: "the file is empty; the first line must be the header: \(FlightStore.csvColumns.joined(separator: ","))")
        }
        self.records = Array(records.dropFirst())
        columns = try Self.columnIndexes(header)
    }

    /// Checks and writes every data row through `writer`, inside the caller's transaction.
    package func apply(to writer: some ScheduleDatabase, now: Date) throws -> CSVImportSummary {
        var importer = try CSVRowImporter(writer: writer, columns: columns, now: now)
        for record in records { try importer.importRecord(record) }
        return CSVImportSummary(inserted: importer.inserted, updated: importer.updated, airlinesAdded: importer.airlinesAdded)
    }

    /// Where each column sits in the header; throws for unknown, repeated or missing names.
    private static func columnIndexes(_ header: CSVRecord) throws(CSVImportError) -> [CSVColumn: Int] {
        let csvColumns = FlightStore.csvColumns
        var indexes: [CSVColumn: Int] = [:]
        for (index, rawName) in header.fields.enumerated() {
            let name = rawName.trimmingCharacters(in: .whitespaces).lowercased()
            guard let column = CSVColumn(rawValue: name) else {
                throw CSVImportError(line: header.line, column: rawName, problem: "unknown column '\(rawName)'; the header must name exactly: \(csvColumns.joined(separator: ","))")
            }
            guard indexes[column] == nil else {
                throw CSVImportError(line: header.line, column: name, problem: "the column '\(name)' appears twice in the header")
            }
            indexes[column] = index
        }
        let missing = CSVColumn.allCases.filter { indexes[$0] == nil }.map(\.rawValue)
        guard missing.isEmpty else {
            throw CSVImportError(line: header.line, column: nil, problem: "the header lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")); it must name exactly: \(csvColumns.joined(separator: ","))")
        }
        return indexes
    }
}

/// Checks and writes the data rows of one import, inside the caller's transaction.
struct CSVRowImporter<Writer: ScheduleDatabase> {
    let writer: Writer
    let columns: [CSVColumn: Int]
    let now: Date
    /// Known statuses and the direction each is limited to (nil: either).
    let statuses: [String: String?]
    var knownAirlines: Set<String>
    /// Upsert keys already written by this file, with their line.
    var seenKeys: [String: Int] = [:]
    var inserted = 0
    var updated = 0
    var airlinesAdded: [String] = []

    /// The largest gap, in minutes, between an `HH:MM` estimate and its schedule on the same day.
    static var halfDayMinutes: Int { 12 * 60 }
    static var minutesPerDay: Int { 24 * 60 }

    init(writer: Writer, columns: [CSVColumn: Int], now: Date) throws {
        self.writer = writer
        self.columns = columns
        self.now = now
        statuses = try writer.statuses()
        knownAirlines = try writer.airlineCodes()
    }

    /// Validates one data record and inserts or updates its movement.
    mutating func importRecord(_ record: CSVRecord) throws {
        guard record.fields.count == columns.count else {
            throw CSVImportError(line: record.line, column: nil,
                                 problem: "the row has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") but the header has \(columns.count); quote fields that contain commas")
        }
        let line = record.line
        func value(_ column: CSVColumn) -> String { record.fields[columns[column]!].trimmingCharacters(in: .whitespacesAndNewlines) }
        func optional(_ column: CSVColumn) -> String? { let text = value(column); return text.isEmpty ? nil : text }
        func failure(_ column: CSVColumn, _ problem: String) -> CSVImportError { CSVImportError(line: line, column: column.rawValue, problem: problem) }

        guard let number = FlightNumber(parsing: value(.flight)) else {
            throw failure(.flight, "'\(value(.flight))' is not a flight number; write the airline code and 1 to 4 digits, e.g. LX40 or LX 040")
        }
        guard let direction = FlightDirection(rawValue: value(.direction).lowercased()) else {
            throw failure(.direction, "'\(value(.direction))' is not a direction; write departure or arrival")
        }
        let airport = value(.airport).uppercased()
        guard airport.count == 3, airport.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw failure(.airport, "'\(value(.airport))' is not an IATA airport code; write three letters, e.g. JFK")
        }
        guard !value(.city).isEmpty else { throw failure(.city, "the city is empty") }

        let status = value(.status).lowercased()
        guard let statusDirection = statuses[status] else {
            throw failure(.status, "'\(value(.status))' is not a status; known: \(statuses.keys.sorted().joined(separator: ", "))")
        }
        if let statusDirection, statusDirection != direction.rawValue {
            throw failure(.status, "'\(status)' is only for \(statusDirection)s, but this row is a \(direction.rawValue)")
        }

        guard let scheduledTime = ImportTime(text: value(.scheduled)) else {
            throw failure(.scheduled, ImportTime.formatHelp(value(.scheduled)))
        }
        let serviceDate: String
        let scheduledLocal: LocalTime
        let scheduledDay: LocalDay
        switch scheduledTime {
        case .local(let time):
            (serviceDate, scheduledLocal, scheduledDay) = (HubSchedule.daily, time, LocalDay.containing(now))
        case .instant(let instant):
            scheduledDay = LocalDay.containing(instant)
            (serviceDate, scheduledLocal) = (scheduledDay.text, LocalTime.containing(instant))
        }
        let scheduledInstant = HubSchedule.instant(on: scheduledDay, at: scheduledLocal)

        var estimatedOffset: Int?
        if let estimatedText = optional(.estimated) {
            switch ImportTime(text: estimatedText) {
            case nil:
                throw failure(.estimated, ImportTime.formatHelp(estimatedText) + ", or leave it empty")
            case .instant(let instant):
                estimatedOffset = Self.minutes(from: scheduledInstant, to: instant)
            case .local(let time):
                var offset = Self.minutes(from: scheduledInstant, to: HubSchedule.instant(on: scheduledDay, at: time))
                if offset < -Self.halfDayMinutes {
                    offset = Self.minutes(from: scheduledInstant, to: HubSchedule.instant(on: scheduledDay.adding(days: 1), at: time))
                } else if offset > Self.halfDayMinutes {
                    offset = Self.minutes(from: scheduledInstant, to: HubSchedule.instant(on: scheduledDay.adding(days: -1), at: time))
                }
                estimatedOffset = offset
            }
        }

        var codeshares: [FlightNumber] = []
        for text in Self.codeshareTokens(value(.codeshares)) {
            guard let codeshare = FlightNumber(parsing: text) else {
                throw failure(.codeshares, "'\(text)' is not a flight number; separate marketing numbers with spaces, e.g. UA53 AC6617")
            }
            guard codeshare != number else { throw failure(.codeshares, "\(codeshare) is the operating number itself") }
            if !codeshares.contains(codeshare) { codeshares.append(codeshare) }
        }

        let key = "\(number.canonical) \(direction.rawValue) \(serviceDate)"
        if let firstLine = seenKeys[key] {
            throw CSVImportError(line: line, column: nil, problem: "\(number) \(direction.rawValue) on \(serviceDate) already appears on line \(firstLine)")
        }
        seenKeys[key] = line

        do {
            try ensureAirline(number.airline, name: optional(.airline) ?? number.airline)
            for codeshare in codeshares { try ensureAirline(codeshare.airline, name: codeshare.airline) }
            try write(
                MovementKey(number: number, direction: direction, serviceDate: serviceDate),
                fields: MovementFields(airport: airport, city: value(.city), scheduled: scheduledLocal.text, estimatedOffset: estimatedOffset,
                                       terminal: optional(.terminal), gate: optional(.gate), belt: optional(.belt), status: status),
                codeshares: codeshares)
        } catch let error as any DatabaseFailure where !error.isUnreachable {
            throw CSVImportError(line: line, column: nil, problem: "the database refused the row: \(error.databaseMessage)")
        }
    }

    /// Inserts the movement or updates the row with the same key, and replaces its codeshares.
    private mutating func write(_ key: MovementKey, fields: MovementFields, codeshares: [FlightNumber]) throws {
        let flightID: Int
        if let existing = try writer.existingMovement(key) {
            // A new gate keeps the one announced before it, so displays can say "gate changed".
            var previousGate = existing.previousGate
            if let oldGate = existing.gate, let gate = fields.gate, oldGate != gate { previousGate = oldGate }
            if previousGate == fields.gate { previousGate = nil }
            try writer.updateMovement(id: existing.id, fields: fields, previousGate: previousGate)
            flightID = existing.id
            updated += 1
        } else {
            flightID = try writer.insertMovement(key, fields: fields)
            inserted += 1
        }
        try writer.replaceCodeshares(ofMovement: flightID, with: codeshares)
    }

    /// Adds an airline the table does not know yet, named `name` (ICAO code and callsign unknown).
    private mutating func ensureAirline(_ code: String, name: String) throws {
        guard !knownAirlines.contains(code) else { return }
        try writer.insertAirline(iata: code, name: name)
        knownAirlines.insert(code)
        airlinesAdded.append(code)
    }

    /// Whole minutes from `start` to `end`, seconds dropped from both.
    static func minutes(from start: Date, to end: Date) -> Int {
        Int((end.timeIntervalSince1970 / 60).rounded(.down) - (start.timeIntervalSince1970 / 60).rounded(.down))
    }

    /// The marketing numbers of a `codeshares` field: separated by spaces (commas tolerated); a lone airline code
    /// followed by digits is one number ("UA 53" → "UA53").
    static func codeshareTokens(_ text: String) -> [String] {
        let pieces = text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        var tokens: [String] = []
        for piece in pieces {
            if let last = tokens.last, FlightNumber.isValidAirlineCode(last.uppercased()), piece.allSatisfy(\.isNumber) {
                tokens[tokens.count - 1] = last + piece
            } else {
                tokens.append(piece)
            }
        }
        return tokens
    }
}

/// A time in an import file: hub-local wall clock ("13:05") or an instant ("2026-11-30T13:05:00+01:00").
enum ImportTime: Equatable {
    case local(LocalTime)
    case instant(Date)

    /// Parses `HH:MM` or ISO 8601 `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or a `±HH:MM`/`±HHMM`/`±HH` offset.
    init?(text: String) {
        if let time = LocalTime(text: text) {
            self = .local(time)
        } else if let instant = Self.parseISO8601(text) {
            self = .instant(instant)
        } else {
            return nil
        }
    }

    /// Why `text` is not a time, and what to write instead.
    static func formatHelp(_ text: String) -> String {
        let looksLikeISOWithoutOffset = text.count >= 16 && parseISO8601(text + "Z") != nil
        if looksLikeISOWithoutOffset {
            return "'\(text)' has no UTC offset; add one (e.g. +01:00 or Z) or write the hub-local time as HH:MM"
        }
        return text.isEmpty
            ? "the time is empty; write HH:MM (hub local) or ISO 8601 with an offset, e.g. 2026-11-30T13:05+01:00"
            : "'\(text)' is not a time; write HH:MM (hub local, 00:00 to 23:59) or ISO 8601 with an offset, e.g. 2026-11-30T13:05+01:00"
    }

    /// The instant of an ISO 8601 date-time with an explicit offset, or nil.
    static func parseISO8601(_ text: String) -> Date? {
        let characters = Array(text.utf8)
        var position = 0
        func digits(_ count: Int) -> Int? {
            guard position + count <= characters.count else { return nil }
            var value = 0
            for character in characters[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) else { return nil }
                value = value * 10 + Int(character - UInt8(ascii: "0"))
            }
            position += count
            return value
        }
        func skip(_ character: Character) -> Bool {
            guard position < characters.count, characters[position] == character.asciiValue else { return false }
            position += 1
            return true
        }
        guard let year = digits(4), skip("-"), let month = digits(2), skip("-"), let day = digits(2),
              skip("T") || skip("t") || skip(" "),
              let hour = digits(2), skip(":"), let minute = digits(2),
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        var second = 0
        if skip(":") {
            guard let value = digits(2), (0...59).contains(value) else { return nil }
            second = value
            if skip(".") || skip(",") {
                let start = position
                while position < characters.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[position]) { position += 1 }
                guard position > start else { return nil }
            }
        }
        let offsetSeconds: Int
        if skip("Z") || skip("z") {
            offsetSeconds = 0
        } else if position < characters.count, characters[position] == UInt8(ascii: "+") || characters[position] == UInt8(ascii: "-") {
            let sign = characters[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let offsetHours = digits(2) else { return nil }
            var offsetMinutes = 0
            if position < characters.count {
                _ = skip(":")
                guard let value = digits(2) else { return nil }
                offsetMinutes = value
            }
            guard offsetHours <= 18, offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard position == characters.count else { return nil }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let wallClockAsUTC = utc.date(from: components),
              utc.dateComponents([.year, .month, .day], from: wallClockAsUTC) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        return wallClockAsUTC.addingTimeInterval(TimeInterval(-offsetSeconds))
    }
}
