import Foundation

/// A JSON document built in memory, so renderers control every key (including explicit nulls) and its order.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer number.
    case int(Int)
    /// A floating-point number; non-finite values are written as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are written sorted.
    case object([String: JSONValue])

    /// The string, or `null` when absent.
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The number rounded to `decimals` places, so that machine noise does not reach stable output.
    public static func rounded(_ value: Double, decimals: Int = 3) -> JSONValue {
        let scale = pow(10, Double(decimals))
        return .double((value * scale).rounded() / scale)
    }

    /// The document as UTF-8 JSON with sorted keys and unescaped slashes; one line unless `pretty`.
    public func serialized(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON value and non-finite numbers become null.
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONValue: Encodable {
    /// Encodes the value as the JSON it describes.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: DynamicKey.self)
            for (key, value) in members { try container.encode(value, forKey: DynamicKey(key)) }
        }
    }

    private struct DynamicKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
