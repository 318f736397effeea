import Foundation
import HTTPServer
import Presenter
import TranscriptionJobs

/// Amazon Transcribe's JSON protocol (awsJson1_1): `POST /` with `X-Amz-Target: Transcribe.<Operation>`.
/// Errors are `{"__type": "...Exception", "Message": "..."}`, which the AWS SDKs turn into their exception classes.
struct TranscribeError: Error, Sendable {
    let status: Int
    let type: String
    let message: String
    var headers: [String: String] = [:]

    static func badRequest(_ message: String) -> TranscribeError { TranscribeError(status: 400, type: "BadRequestException", message: message) }

    var response: HTTPResponse {
        .json(status, JSONValue.object(["__type": .string(type), "Message": .string(message)]).serialized(), contentType: "application/x-amz-json-1.1", headers: headers)
    }

    /// The same failure in Transcribe's terms when the native layer raised it.
    init(_ error: APIError) {
        switch error.status {
        case 409: self.init(status: 400, type: "ConflictException", message: error.message)
        case 404: self.init(status: 400, type: "NotFoundException", message: error.message)
        case 503: self.init(status: 400, type: "LimitExceededException", message: error.message, headers: error.headers)
        case 400..<500: self.init(status: 400, type: "BadRequestException", message: error.message)
        default: self.init(status: 500, type: "InternalFailureException", message: error.message)
        }
    }

    init(status: Int, type: String, message: String, headers: [String: String] = [:]) {
        self.status = status
        self.type = type
        self.message = message
        self.headers = headers
    }
}

/// Request shapes of the operations we serve (field names as in the Transcribe API).
struct StartTranscriptionJobRequest: Decodable {
    struct Media: Decodable { var MediaFileUri: String? }
    var TranscriptionJobName: String
    var LanguageCode: String?
    var MediaSampleRateHertz: Int?
    var MediaFormat: String?
    var Media: Media
    var OutputBucketName: String?
    var OutputKey: String?
}

struct JobNameRequest: Decodable {
    var TranscriptionJobName: String
}

struct ListTranscriptionJobsRequest: Decodable {
    var Status: String?
    var JobNameContains: String?
    var NextToken: String?
    var MaxResults: Int?
}

extension FlightVoiceService {
    static let transcribeTargetPrefix = "Transcribe."

    func addAWSRoutes(to router: inout Router) {
        router.add("POST", "/") { [self] request, _ in
            do throws(TranscribeError) {
                return try transcribe(request)
            } catch {
                return error.response
            }
        }
    }

    private func transcribe(_ request: HTTPRequest) throws(TranscribeError) -> HTTPResponse {
        guard let target = request.header("x-amz-target"), target.hasPrefix(Self.transcribeTargetPrefix) else {
            throw TranscribeError(status: 400, type: "UnknownOperationException", message: "POST / needs X-Amz-Target: Transcribe.<Operation>")
        }
        do {
            _ = try SigV4Verifier(credentials: credentials).verify(request)
        } catch {
            throw Self.transcribeFailure(error)
        }
        switch target.dropFirst(Self.transcribeTargetPrefix.count) {
        case "StartTranscriptionJob": return try startTranscriptionJob(try decode(StartTranscriptionJobRequest.self, request))
        case "GetTranscriptionJob":
            let name = try decode(JobNameRequest.self, request).TranscriptionJobName
            let job = try native { () throws(APIError) in try waitForJob(name, wait: 0) }
            return Self.awsJSON(.object(["TranscriptionJob": transcriptionJobObject(job)]))
        case "ListTranscriptionJobs": return try listTranscriptionJobs(try decode(ListTranscriptionJobsRequest.self, request))
        case "DeleteTranscriptionJob":
            let name = try decode(JobNameRequest.self, request).TranscriptionJobName
            _ = try native { () throws(APIError) in try removeJob(name) }
            return Self.awsJSON(.object([:]))
        default:
            throw TranscribeError(status: 400, type: "UnknownOperationException", message: "\(target) is not served here; served: StartTranscriptionJob, GetTranscriptionJob, ListTranscriptionJobs, DeleteTranscriptionJob")
        }
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ request: HTTPRequest) throws(TranscribeError) -> Value {
        do {
            return try JSONBody.decode(type, from: request.body)
        } catch {
            throw TranscribeError(status: 400, type: "SerializationException", message: error.message)
        }
    }

    private func native<Value>(_ body: () throws(APIError) -> Value) throws(TranscribeError) -> Value {
        do { return try body() } catch { throw TranscribeError(error) }
    }

    private func startTranscriptionJob(_ input: StartTranscriptionJobRequest) throws(TranscribeError) -> HTTPResponse {
        guard let uri = input.Media.MediaFileUri else { throw .badRequest("Media.MediaFileUri is required") }
        var fields = try native { () throws(APIError) in
            try JobCreationFields(text: ["name": input.TranscriptionJobName, "languageCode": input.LanguageCode ?? ""]).validated()
        }
        fields.mediaFormat = input.MediaFormat
        fields.mediaSampleRateHertz = input.MediaSampleRateHertz
        fields = try native { () throws(APIError) in try fields.validated() }
        if let bucket = input.OutputBucketName {
            guard DataFolder.objectPath(bucket: bucket, key: input.OutputKey ?? "\(input.TranscriptionJobName).json") != nil else {
                throw .badRequest("OutputBucketName/OutputKey do not name a valid bucket and key")
            }
            guard (try? objects.bucketExists(bucket)) == true else { throw .badRequest("the output bucket \(bucket) does not exist; create it first") }
        }
        guard !isDraining else { throw TranscribeError(APIError.busy("the server is shutting down", retryAfter: configuration.retryAfterSeconds)) }
        if let queued = try? store.counts()[.queued], queued >= configuration.maximumQueuedJobs {
            throw TranscribeError(status: 400, type: "LimitExceededException", message: "\(queued) jobs are queued; retry later",
                                  headers: ["Retry-After": String(configuration.retryAfterSeconds)])
        }
        let media = try native { () throws(APIError) in try jobMedia(forMediaURI: uri) }
        let mediaPath = media.path
        let job = NewTranscriptionJob(name: input.TranscriptionJobName, languageCode: fields.languageCode!, mediaFormat: input.MediaFormat,
                                      mediaSampleRateHertz: input.MediaSampleRateHertz, mediaPath: mediaPath, mediaURI: uri,
                                      outputBucket: input.OutputBucketName, outputKey: input.OutputBucketName == nil ? nil : (input.OutputKey ?? "\(input.TranscriptionJobName).json"))
        let created = try native { () throws(APIError) in try createInStore(job, cleanUp: media.copy) }
        return Self.awsJSON(.object(["TranscriptionJob": transcriptionJobObject(created)]))
    }

    private func listTranscriptionJobs(_ input: ListTranscriptionJobsRequest) throws(TranscribeError) -> HTTPResponse {
        var status: JobStatus?
        if let text = input.Status {
            guard let parsed = JobStatus(rawValue: text) else { throw .badRequest("Status must be one of \(JobStatus.allCases.map(\.rawValue).joined(separator: ", "))") }
            status = parsed
        }
        let limit = input.MaxResults ?? 100
        guard (1...100).contains(limit) else { throw .badRequest("MaxResults must be from 1 to 100") }
        var token = input.NextToken
        var summaries: [JSONValue] = []
        // JobNameContains filters after paging through the store, so a page may come back short (as Transcribe's may).
        let page = try native { () throws(APIError) in try listPage(status: status, nextToken: token, limit: limit) }
        for job in page.jobs where input.JobNameContains.map({ job.name.localizedCaseInsensitiveContains($0) }) ?? true {
            summaries.append(summaryObject(job))
        }
        token = page.nextToken
        var body: [String: JSONValue] = ["TranscriptionJobSummaries": .array(summaries)]
        if let status { body["Status"] = .string(status.rawValue) }
        if let token { body["NextToken"] = .string(token) }
        return Self.awsJSON(.object(body))
    }

    /// `Transcript.TranscriptFileUri`: the output object when the job has one, else our transcript route.
    private func transcriptURI(_ job: TranscriptionJob) -> String {
        let base = baseURL.get()
        if let bucket = job.request.outputBucket, let key = job.request.outputKey {
            return "\(base)/\(bucket)/\(QueryString.uriEncoded(key, encodeSlash: false))"
        }
        return "\(base)/v1/transcription-jobs/\(job.name)/transcript"
    }

    private func transcriptionJobObject(_ job: TranscriptionJob) -> JSONValue {
        var object: [String: JSONValue] = [
            "TranscriptionJobName": .string(job.name),
            "TranscriptionJobStatus": .string(job.status.rawValue),
            "LanguageCode": .string(job.request.languageCode),
            "CreationTime": .double(job.createdAt.timeIntervalSince1970),
        ]
        // Jobs created through the native API with an uploaded body have no S3 URI to show.
        if let uri = job.request.mediaURI { object["Media"] = .object(["MediaFileUri": .string(uri)]) }
        if let format = job.request.mediaFormat { object["MediaFormat"] = .string(format) }
        if let rate = job.request.mediaSampleRateHertz { object["MediaSampleRateHertz"] = .int(rate) }
        Self.addProgress(of: job, to: &object)
        if job.status == .completed { object["Transcript"] = .object(["TranscriptFileUri": .string(transcriptURI(job))]) }
        return .object(object)
    }

    private func summaryObject(_ job: TranscriptionJob) -> JSONValue {
        var object: [String: JSONValue] = [
            "TranscriptionJobName": .string(job.name),
            "TranscriptionJobStatus": .string(job.status.rawValue),
            "LanguageCode": .string(job.request.languageCode),
            "CreationTime": .double(job.createdAt.timeIntervalSince1970),
            "OutputLocationType": .string(job.request.outputBucket == nil ? "SERVICE_BUCKET" : "CUSTOMER_BUCKET"),
        ]
        Self.addProgress(of: job, to: &object)
        return .object(object)
    }

    /// StartTime, CompletionTime and FailureReason, as far as the job has them (timestamps in epoch seconds).
    private static func addProgress(of job: TranscriptionJob, to object: inout [String: JSONValue]) {
        if let started = job.startedAt { object["StartTime"] = .double(started.timeIntervalSince1970) }
        if let completed = job.completedAt { object["CompletionTime"] = .double(completed.timeIntervalSince1970) }
        if let reason = job.failureReason { object["FailureReason"] = .string(reason) }
    }

    static func awsJSON(_ value: JSONValue) -> HTTPResponse {
        .json(200, value.serialized(), contentType: "application/x-amz-json-1.1")
    }

    static func transcribeFailure(_ failure: SigV4Verifier.Failure) -> TranscribeError {
        switch failure {
        case .missing(let message): TranscribeError(status: 403, type: "MissingAuthenticationTokenException", message: message)
        case .malformed(let message): TranscribeError(status: 403, type: "IncompleteSignatureException", message: message)
        case .unknownKey(let message): TranscribeError(status: 403, type: "UnrecognizedClientException", message: message)
        case .signatureMismatch(let message): TranscribeError(status: 403, type: "InvalidSignatureException", message: message)
        case .expired(let message): TranscribeError(status: 403, type: "InvalidSignatureException", message: message)
        }
    }
}
