import Foundation
import HTTPServer
import Presenter

/// A failure a client caused or must hear about: an HTTP status, a stable code and a message saying what to do.
struct APIError: Error, Sendable {
    let status: Int
    let code: String
    let message: String
    var headers: [String: String] = [:]

    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(status: 400, code: code, message: message) }
    static func notFound(_ code: String, _ message: String) -> APIError { APIError(status: 404, code: code, message: message) }

    /// 503 with `Retry-After`: the queue is full or the service is draining.
    static func busy(_ message: String, retryAfter seconds: Int) -> APIError {
        APIError(status: 503, code: "ServiceUnavailable", message: message, headers: ["Retry-After": String(seconds)])
    }

    /// The native API's error body: `{"error": {"code": ..., "message": ...}}`.
    var response: HTTPResponse {
        HTTPResponse.json(status, JSONValue.object(["error": .object(["code": .string(code), "message": .string(message)])]).serialized(), headers: headers)
    }
}

extension HTTPResponse {
    /// A JSON response from a document.
    static func json(_ status: Int, _ value: JSONValue, headers: [String: String] = [:]) -> HTTPResponse {
        .json(status, value.serialized(), headers: headers)
    }
}

/// ISO 8601 with milliseconds, in UTC: the times of the job API.
enum Timestamp {
    static func text(_ date: Date?) -> JSONValue {
        guard let date else { return .null }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .string(formatter.string(from: date))
    }
}

/// Reads a request's JSON body into a `Decodable` value, turning every failure into a 400 that names the problem.
enum JSONBody {
    static func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws(APIError) -> Value {
        guard !body.isEmpty else { throw .badRequest("MalformedJSON", "the request body is empty; send a JSON object") }
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            throw .badRequest("MalformedJSON", describe(error))
        } catch {
            throw .badRequest("MalformedJSON", "the body is not valid JSON: \(error.localizedDescription)")
        }
    }

    /// A one-line account of what is wrong, with the key path.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the body" : "'\(keys.joined(separator: "."))'"
        }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(context)) is invalid: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "the required field '\(key.stringValue)' is missing" + (context.codingPath.isEmpty ? "" : " in \(path(context))")
        case .typeMismatch(let type, let context):
            return "\(path(context)) must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) must be \(typeName(type)), not null"
        @unknown default:
            return "the body does not have the expected shape"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "an object of the documented shape"
        }
    }
}

/// Any JSON document, read back into a `JSONValue` (the stored answer object of a job).
struct DecodedJSON: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(DecodedJSON.self).value) }
            value = .array(values)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(DecodedJSON.self, forKey: key).value }
            value = .object(members)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { value = .null }
            else if let flag = try? single.decode(Bool.self) { value = .bool(flag) }
            else if let integer = try? single.decode(Int.self) { value = .int(integer) }
            else if let number = try? single.decode(Double.self) { value = .double(number) }
            else { value = .string(try single.decode(String.self)) }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The document in `text`, or nil when it is not JSON.
    static func parse(_ text: String) -> JSONValue? { try? JSONDecoder().decode(DecodedJSON.self, from: Data(text.utf8)).value }
}
