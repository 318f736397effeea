import FlightCore
import FlightStore
import Foundation
import HTTPServer
import Presenter
import Synchronization

/// The fields `PUT /v1/flights/{flight}` may set; absent fields keep their value (a new flight needs the route).
struct FlightUpdate: Decodable, Sendable {
    var airline: String?
    var direction: String?
    var airport: String?
    var city: String?
    /// `HH:MM` hub time or ISO 8601.
    var scheduled: String?
    var estimated: String?
    var terminal: String?
    var gate: String?
    var belt: String?
    var status: String?
    var codeshares: [String]?
}

extension FlightVoiceService {
    func addFlightRoutes(to router: inout Router) {
        router.add("GET", "/v1/flights", Self.api { [self] request, _ throws(APIError) in
            if let query = request.query["q"] { return try lookUp(query) }
            return try listFlights(request)
        })
        router.add("GET", "/v1/flights/{flight}", Self.api { [self] _, parameters throws(APIError) in try lookUp(parameters["flight"]!) })
        router.add("PUT", "/v1/flights/{flight}", Self.api { [self] request, parameters throws(APIError) in
            try authorize(request)
            return try updateFlight(parameters["flight"]!, request)
        })
        router.add("POST", "/v1/flights:import", Self.api { [self] request, _ throws(APIError) in
            try authorize(request)
            guard let csv = String(data: request.body, encoding: .utf8), !csv.isEmpty else { throw .badRequest("MalformedCSV", "send the CSV of 'flightvoice db import' as UTF-8 text") }
            let summary = try importCSV(csv)
            return .json(200, .object(["inserted": .int(summary.inserted), "updated": .int(summary.updated), "airlinesAdded": .array(summary.airlinesAdded.map(JSONValue.string))]))
        })
    }

    /// Flight writes need `Authorization: Bearer TOKEN`, compared in constant time.
    func authorize(_ request: HTTPRequest) throws(APIError) {
        guard let header = request.header("authorization"), header.lowercased().hasPrefix("bearer ") else {
            throw APIError(status: 401, code: "Unauthorized", message: "flight updates need 'Authorization: Bearer TOKEN' (the token is in the data folder's api-token file)", headers: ["WWW-Authenticate": "Bearer"])
        }
        guard Crypto.constantTimeEqual(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces), apiToken) else {
            throw APIError(status: 401, code: "Unauthorized", message: "the Bearer token is not this server's", headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])
        }
    }

    /// The answer to a typed lookup, from the cache while the schedule and the minute are unchanged.
    private func lookUp(_ text: String) throws(APIError) -> HTTPResponse {
        let now = configuration.now()
        let key = LookupCache.Key(text: text, revision: lookupRevision.load(ordering: .acquiring), minute: Int64((now.timeIntervalSince1970 / 60).rounded(.down)))
        if let cached = lookupCache.response(for: key) { return cached }
        let response: HTTPResponse
        do { response = try answerLookup(text, now: now) } catch { response = error.response }
        lookupCache.store(response, for: key)
        return response
    }

    private func answerLookup(_ text: String, now: Date) throws(APIError) -> HTTPResponse {
        let answer: QueryAnswer
        do { answer = try workers.currentAnswerer.resolver.answer(text, now: now) } catch { throw APIError(status: 500, code: "InternalFailure", message: "the flight database failed: \(error)") }
        switch answer.status {
        case .found:
            return .json(200, AnswerJSON.object(for: answer))
        case .notFound:
            let suggestions = answer.suggestions.map(\.requested.display).joined(separator: ", ")
            throw .notFound("FlightNotFound", "\(answer.flightNumber?.display ?? text) does not fly today" + (suggestions.isEmpty ? "" : "; did you mean \(suggestions)?"))
        default:
            throw .badRequest("NotAFlightNumber", answer.message ?? "'\(text.prefix(80))' is not understood as a flight number")
        }
    }

    private func listFlights(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        var status: FlightStatus?
        if let text = request.query["status"] {
            guard let parsed = FlightStatus(rawValue: text.lowercased()) else {
                throw .badRequest("InvalidParameter", "status must be one of \(FlightStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            status = parsed
        }
        var direction: FlightDirection?
        if let text = request.query["direction"] {
            guard let parsed = FlightDirection(rawValue: text.lowercased()) else { throw .badRequest("InvalidParameter", "direction must be departure or arrival") }
            direction = parsed
        }
        let now = configuration.now()
        do {
            var seen = Set<FlightNumber>()
            var listed: [FlightLookup] = []
            for number in try flights.flightNumbers(near: now) {
                guard let lookup = try flights.flight(number, near: now), !lookup.isCodeshare, seen.insert(lookup.flight.number).inserted else { continue }
                if let status, lookup.flight.status != status { continue }
                if let direction, lookup.flight.direction != direction { continue }
                listed.append(lookup)
            }
            listed.sort { $0.flight.scheduled < $1.flight.scheduled }
            return .json(200, .object(["flights": .array(listed.map(AnswerJSON.flightObject))]))
        } catch {
            throw APIError(status: 500, code: "InternalFailure", message: "the flight database failed: \(error)")
        }
    }

    private func updateFlight(_ text: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard let number = FlightNumber(parsing: text) else { throw .badRequest("NotAFlightNumber", "'\(text.prefix(40))' is not a flight number such as LX40") }
        let update = try JSONBody.decode(FlightUpdate.self, from: request.body)
        let now = configuration.now()
        let existing: Flight?
        do { existing = try flights.flight(number, near: now).flatMap { $0.isCodeshare ? nil : $0.flight } } catch { throw APIError(status: 500, code: "InternalFailure", message: "\(error)") }
        func clock(_ date: Date?) -> String? {
            guard let date else { return nil }
            let parts = Hub.calendar.dateComponents([.hour, .minute], from: date)
            return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        }
        let row: [String?] = [
            number.canonical,
            update.airline ?? existing?.airline.name,
            update.direction ?? existing?.direction.rawValue,
            update.airport ?? existing?.airport.iata,
            update.city ?? existing?.airport.city,
            update.scheduled ?? clock(existing?.scheduled),
            update.estimated ?? clock(existing?.estimated),
            update.terminal ?? existing?.terminal,
            update.gate ?? existing?.gate,
            update.belt ?? existing?.belt,
            update.status ?? existing?.status.rawValue,
            (update.codeshares ?? existing?.codeshares.map(\.canonical))?.joined(separator: " "),
        ]
        let csv = FlightStore.csvColumns.joined(separator: ",") + "\n" + row.map { Self.csvField($0 ?? "") }.joined(separator: ",") + "\n"
        let summary = try importCSV(csv)
        guard let lookup = try? flights.flight(number, near: now) else { throw APIError(status: 500, code: "InternalFailure", message: "the flight was written but cannot be read back") }
        return .json(summary.inserted > 0 ? 201 : 200, AnswerJSON.flightObject(lookup))
    }

    private func importCSV(_ csv: String) throws(APIError) -> CSVImportSummary {
        do {
            let summary = try flights.importCSV(text: csv, now: configuration.now())
            checkSchedule()
            return summary
        } catch let error as CSVImportError {
            throw .badRequest("InvalidFlightData", error.description)
        } catch {
            throw APIError(status: 500, code: "InternalFailure", message: "the flight database failed: \(error)")
        }
    }

    /// Flight writes made here change the schedule at once; the watcher also notices other processes' writes.
    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

/// Typed lookups answered for one schedule revision and one minute (answers depend on the flights and on "now").
/// Bounded: emptied when full. Thread-safe.
final class LookupCache: Sendable {
    struct Key: Hashable, Sendable {
        let text: String
        let revision: Int64
        let minute: Int64
    }

    /// Distinct queries kept before the cache starts over.
    static let capacity = 10_000
    private let entries = Mutex<[Key: HTTPResponse]>([:])

    func response(for key: Key) -> HTTPResponse? { entries.withLock { $0[key] } }

    func store(_ response: HTTPResponse, for key: Key) {
        guard response.status < 500 else { return }
        entries.withLock { entries in
            if entries.count >= Self.capacity || entries.keys.first.map({ $0.revision != key.revision || $0.minute != key.minute }) == true {
                entries.removeAll(keepingCapacity: true)
            }
            entries[key] = response
        }
    }
}
