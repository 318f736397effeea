import FlightCore
import Foundation

/// The JSON of one query answer (`ask --json`): a stable object documented in docs/json-output.md.
/// Every documented key is always present; absent values are explicit `null`s.
public enum AnswerJSON {
    /// The answer as a JSON string with sorted keys; one line unless `pretty`.
    public static func render(_ answer: QueryAnswer, pretty: Bool = false) -> String {
        object(for: answer).serialized(pretty: pretty)
    }

    /// The answer object: status, query, flight, candidates, result, suggestions, message.
    public static func object(for answer: QueryAnswer) -> JSONValue {
        .object([
            "status": .string(answer.status.rawValue),
            "query": .string(answer.heard),
            "flight": .string(answer.flightNumber?.canonical),
            "candidates": .array(answer.candidates.map(candidateObject)),
            "result": answer.lookup.map(flightObject) ?? .null,
            "suggestions": .array(answer.suggestions.map(flightObject)),
            "message": .string(answer.message),
        ])
    }

    /// One reading of the query: flight, score and how each token was read.
    public static func candidateObject(_ candidate: FlightCandidate) -> JSONValue {
        .object([
            "flight": .string(candidate.flight.canonical),
            "score": .rounded(candidate.score),
            "readings": .array(candidate.readings.map { reading in
                .object([
                    "token": .string(reading.token),
                    "read_as": .string(reading.readAs),
                    "role": .string(reading.role.rawValue),
                ])
            }),
        ])
    }

    /// The looked-up movement (the "result" object, also used for suggestions and `flight_info`).
    public static func flightObject(_ lookup: FlightLookup) -> JSONValue {
        let flight = lookup.flight
        return .object([
            "flight": .string(flight.number.canonical),
            "requested": .string(lookup.requested.canonical),
            "codeshare": .bool(lookup.isCodeshare),
            "airline": .object([
                "iata": .string(flight.airline.iata),
                "icao": .string(flight.airline.icao),
                "name": .string(flight.airline.name),
            ]),
            "direction": .string(flight.direction.rawValue),
            "airport": .object([
                "iata": .string(flight.airport.iata),
                "city": .string(flight.airport.city),
            ]),
            "scheduled": .string(HubTime.iso8601(flight.scheduled)),
            "estimated": .string(flight.estimated.map(HubTime.iso8601)),
            "terminal": .string(flight.terminal),
            "gate": .string(flight.gate),
            "previous_gate": .string(flight.previousGate),
            "belt": .string(flight.belt),
            "status": .string(flight.status.rawValue),
            "codeshares": .array(flight.codeshares.map { .string($0.canonical) }),
        ])
    }
}
