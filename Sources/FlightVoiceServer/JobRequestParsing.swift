import Foundation
import HTTPServer

/// The fields of a job-creation request, from the query string, a multipart form, or a JSON body.
struct JobCreationFields: Sendable, Equatable, Decodable {
    var name: String?
    var languageCode: String?
    var mediaFormat: String?
    var mediaSampleRateHertz: Int?
    var maxAlternatives: Int?
    var callbackUrl: String?
    /// JSON bodies only: an object this service holds, `s3://bucket/key`.
    var mediaUri: String?

    /// The languages jobs accept.
    static let supportedLanguages = ["en-US"]
    static let sampleRates = 8000...192_000
    static let alternatives = 2...10

    /// Fields from text values (query string or form), checking numbers.
    init(text: [String: String]) throws(APIError) {
        name = text["name"]
        languageCode = text["languageCode"]
        mediaFormat = text["mediaFormat"]
        callbackUrl = text["callbackUrl"]
        mediaSampleRateHertz = try Self.integer(text["mediaSampleRateHertz"], "mediaSampleRateHertz")
        maxAlternatives = try Self.integer(text["maxAlternatives"], "maxAlternatives")
    }

    private static func integer(_ text: String?, _ field: String) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text) else { throw .badRequest("InvalidParameter", "\(field) must be a whole number, not '\(text.prefix(40))'") }
        return value
    }

    /// Checks every field; the error names the first one that is wrong and what it must be.
    func validated() throws(APIError) -> JobCreationFields {
        guard let name else { throw .badRequest("MissingParameter", "name is required: [A-Za-z0-9._-], 1 to 200 characters") }
        guard DataFolder.isValidJobName(name) else {
            throw .badRequest("InvalidParameter", "name '\(name.prefix(60))' is not allowed: use [A-Za-z0-9._-], 1 to 200 characters")
        }
        guard let languageCode else { throw .badRequest("MissingParameter", "languageCode is required; supported: \(Self.supportedLanguages.joined(separator: ", "))") }
        guard Self.supportedLanguages.contains(languageCode) else {
            throw .badRequest("UnsupportedLanguage", "languageCode '\(languageCode.prefix(20))' is not supported; supported: \(Self.supportedLanguages.joined(separator: ", "))")
        }
        if let mediaFormat, !MediaFormats.accepted.contains(mediaFormat) {
            throw .badRequest("InvalidParameter", "mediaFormat '\(mediaFormat.prefix(20))' is not one of \(MediaFormats.accepted.sorted().joined(separator: ", "))")
        }
        if let rate = mediaSampleRateHertz, !Self.sampleRates.contains(rate) {
            throw .badRequest("InvalidParameter", "mediaSampleRateHertz must be between \(Self.sampleRates.lowerBound) and \(Self.sampleRates.upperBound)")
        }
        if mediaFormat == MediaFormats.rawPCM, mediaSampleRateHertz == nil {
            throw .badRequest("MissingParameter", "mediaFormat pcm (headerless 16-bit little-endian mono) needs mediaSampleRateHertz")
        }
        if let count = maxAlternatives, !Self.alternatives.contains(count) {
            throw .badRequest("InvalidParameter", "maxAlternatives must be between \(Self.alternatives.lowerBound) and \(Self.alternatives.upperBound)")
        }
        if let callbackUrl {
            guard let url = URL(string: callbackUrl), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw .badRequest("InvalidParameter", "callbackUrl must be an http or https URL")
            }
        }
        return self
    }
}

/// A job-creation request taken apart: its fields and its media (or a reference to an object we hold).
struct JobCreationRequest: Sendable {
    let fields: JobCreationFields
    let media: Data?

    /// Reads the request in whichever of the three forms it came: multipart form, JSON with `mediaUri`, or the media
    /// as the body with the fields in the query string.
    static func parse(_ request: HTTPRequest) throws(APIError) -> JobCreationRequest {
        switch request.contentType {
        case "multipart/form-data":
            guard let boundary = request.header("content-type").flatMap(Multipart.boundary(fromContentType:)) else {
                throw .badRequest("MalformedMultipart", "Content-Type multipart/form-data needs a boundary parameter")
            }
            let parts: [Multipart.Part]
            do {
                parts = try Multipart.parse([UInt8](request.body), boundary: boundary)
            } catch {
                throw .badRequest("MalformedMultipart", error.problem)
            }
            var text = request.query
            var media: Data?
            for part in parts {
                if part.name == "media" || part.fileName != nil {
                    media = Data(part.body)
                } else {
                    guard let value = part.text else { throw .badRequest("MalformedMultipart", "form field '\(part.name)' is not UTF-8 text") }
                    text[part.name] = value
                }
            }
            guard let media else { throw .badRequest("MissingParameter", "the form has no 'media' file part") }
            return JobCreationRequest(fields: try JobCreationFields(text: text).validated(), media: media)
        case "application/json":
            let fields = try JSONBody.decode(JobCreationFields.self, from: request.body)
            guard fields.mediaUri != nil else { throw .badRequest("MissingParameter", "a JSON request names its media with mediaUri (s3://bucket/key); to upload, send the audio as the body") }
            return JobCreationRequest(fields: try fields.validated(), media: nil)
        default:
            guard !request.body.isEmpty else { throw .badRequest("MissingParameter", "the request has no media: send the audio as the body, or a multipart form with a 'media' part") }
            return JobCreationRequest(fields: try JobCreationFields(text: request.query).validated(), media: request.body)
        }
    }
}
