import AudioInput
import FlightCore
import Foundation
import HTTPServer
import Presenter
import Recognizer
import Synchronization
import TranscriptionJobs

/// A job as the native API shows it (GET, list, callbacks, the final event).
enum NativeJobRepresentation {
    static func object(_ job: TranscriptionJob, baseURL: String) -> JSONValue {
        let request = job.request
        let answer = job.answerJSON.flatMap(DecodedJSON.parse) ?? .null
        return .object([
            "name": .string(job.name),
            "status": .string(job.status.rawValue),
            "languageCode": .string(request.languageCode),
            "mediaFormat": .string(request.mediaFormat),
            "mediaSampleRateHertz": request.mediaSampleRateHertz.map(JSONValue.int) ?? .null,
            "maxAlternatives": request.maxAlternatives.map(JSONValue.int) ?? .null,
            "callbackUrl": .string(request.callbackURL),
            "mediaUri": .string(request.mediaURI),
            "createdAt": Timestamp.text(job.createdAt),
            "startedAt": Timestamp.text(job.startedAt),
            "completedAt": Timestamp.text(job.completedAt),
            "failureReason": .string(job.failureReason),
            "transcriptUrl": .string(job.status == .completed ? "\(baseURL)/v1/transcription-jobs/\(job.name)/transcript" : nil),
            "answer": answer,
        ])
    }
}

extension FlightVoiceService {
    /// How long a synchronous recognition may wait for a free worker and its decode before 503.
    static let recognitionTimeoutSeconds = 120.0
    /// Jobs per page when the client does not say.
    static let defaultPageSize = 20
    static let maximumPageSize = 100
    /// An events stream with nothing new sends a comment this often, so proxies and clients see it alive.
    static let eventsKeepAliveSeconds = 15.0

    func addNativeRoutes(to router: inout Router) {
        router.add("GET", "/healthz", Self.api { [self] _, _ throws(APIError) in try health() })
        router.add("GET", "/metrics") { [self] _, _ in
            let counts = (try? store.counts()) ?? [:]
            return .text(200, metrics.render(jobs: counts, waitingRecognitions: workers.waitingCount, workers: workers.count), contentType: "text/plain; version=0.0.4")
        }
        router.add("POST", "/v1/recognize", Self.api { [self] request, _ throws(APIError) in try recognize(request) })
        router.add("POST", "/v1/transcription-jobs", Self.api { [self] request, _ throws(APIError) in try createJob(request) })
        router.add("GET", "/v1/transcription-jobs", Self.api { [self] request, _ throws(APIError) in try listJobs(request) })
        router.add("GET", "/v1/transcription-jobs/{name}", Self.api { [self] request, parameters throws(APIError) in
            try getJob(parameters["name"]!, wait: try Self.waitSeconds(request, maximum: configuration.maximumWaitSeconds))
        })
        router.add("DELETE", "/v1/transcription-jobs/{name}", Self.api { [self] _, parameters throws(APIError) in try deleteJob(parameters["name"]!) })
        router.add("GET", "/v1/transcription-jobs/{name}/transcript", Self.api { [self] _, parameters throws(APIError) in try transcript(parameters["name"]!) })
        router.add("GET", "/v1/transcription-jobs/{name}/events", Self.api { [self] _, parameters throws(APIError) in try eventStream(parameters["name"]!) })
    }

    private func health() throws(APIError) -> HTTPResponse {
        let readiness = workers.readiness
        if let failure = readiness.failure { throw APIError(status: 503, code: "ModelUnavailable", message: "the speech model could not be loaded: \(failure)") }
        guard readiness.ready, !isDraining else {
            throw APIError(status: 503, code: "NotReady", message: isDraining ? "the server is shutting down" : "the speech models are still loading", headers: ["Retry-After": "1"])
        }
        return .json(200, .object([
            "status": .string("ok"),
            "workers": .int(workers.count),
            "grammarFlights": .int(workers.currentAnswerer.vocabulary.flights.count),
        ]))
    }

    // MARK: Synchronous recognition

    private func recognize(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard !request.body.isEmpty else { throw .badRequest("MissingMedia", "send the audio as the request body (WAV, FLAC, Ogg, MP3, M4A, or raw PCM with ?format=pcm&rate=HZ)") }
        let format = request.query["format"] ?? (request.contentType == "audio/l16" ? MediaFormats.rawPCM : nil)
        let rawRate: Int?
        if format == MediaFormats.rawPCM {
            let rateText = request.query["rate"] ?? request.header("content-type").flatMap { header in
                header.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.lowercased().hasPrefix("rate=") }.map { String($0.dropFirst(5)) }
            }
            guard let rateText, let rate = Int(rateText), JobCreationFields.sampleRates.contains(rate) else {
                throw .badRequest("MissingParameter", "raw PCM needs its sample rate: ?rate=HZ between 8000 and 192000")
            }
            rawRate = rate
        } else if let format, !MediaFormats.accepted.contains(format) {
            throw .badRequest("InvalidParameter", "format '\(format.prefix(20))' is not one of \(MediaFormats.accepted.sorted().joined(separator: ", "))")
        } else {
            rawRate = nil
        }
        guard !isDraining else { throw .busy("the server is shutting down", retryAfter: configuration.retryAfterSeconds) }
        let body = request.body
        let result = Mutex<ClipReport?>(nil)
        let done = DispatchSemaphore(value: 0)
        let accepted = workers.submit({ [metrics] recognizer, answerer in
            let report = answerer.report(path: "request", decode: { try AudioFileDecoder.decode(data: body, name: "request body", rawSampleRate: rawRate) }, recognizer: recognizer)
            if report.error == nil { metrics.countDecode(seconds: report.processingSeconds, audioSeconds: report.audioDuration) }
            result.withLock { $0 = report }
            done.signal()
        }, dropped: { done.signal() })
        guard accepted else { throw .busy("\(configuration.maximumWaitingRecognitions) recognitions are waiting for a worker; retry later", retryAfter: configuration.retryAfterSeconds) }
        guard done.wait(timeout: .now() + Self.recognitionTimeoutSeconds) == .success, let report = result.withLock({ $0 }) else {
            throw .busy("no worker answered within \(Int(Self.recognitionTimeoutSeconds)) s", retryAfter: configuration.retryAfterSeconds)
        }
        if report.answer.status == .error {
            throw APIError(status: 415, code: "UnsupportedMediaFormat", message: report.error ?? "the audio cannot be decoded")
        }
        return .json(200, ClipReportOutput.jsonObject(report))
    }

    // MARK: Jobs

    private func createJob(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let creation = try JobCreationRequest.parse(request)
        let fields = creation.fields
        let name = fields.name!
        guard !isDraining else { throw .busy("the server is shutting down", retryAfter: configuration.retryAfterSeconds) }
        if let queued = try? store.counts()[.queued], queued >= configuration.maximumQueuedJobs {
            throw .busy("\(queued) jobs are queued, the limit is \(configuration.maximumQueuedJobs); retry later", retryAfter: configuration.retryAfterSeconds)
        }
        let mediaPath: String
        var uploaded: String?
        if let media = creation.media {
            mediaPath = try storeMedia(media)
            uploaded = mediaPath
        } else {
            (mediaPath, uploaded) = try jobMedia(forMediaURI: fields.mediaUri!)
        }
        let job = NewTranscriptionJob(name: name, languageCode: fields.languageCode!, mediaFormat: fields.mediaFormat, mediaSampleRateHertz: fields.mediaSampleRateHertz,
                                      maxAlternatives: fields.maxAlternatives, callbackURL: fields.callbackUrl, mediaPath: mediaPath, mediaURI: fields.mediaUri)
        let created = try createInStore(job, cleanUp: uploaded)
        return .json(201, NativeJobRepresentation.object(created, baseURL: baseURL.get()), headers: ["Location": "/v1/transcription-jobs/\(name)"])
    }

    /// Stores a new job and wakes a worker; removes `cleanUp` (uploaded media) when the store refuses it.
    func createInStore(_ job: NewTranscriptionJob, cleanUp: String?) throws(APIError) -> TranscriptionJob {
        do {
            let created = try store.create(job, now: Date())
            events.publishStatus(job.name, .queued)
            workers.jobQueued()
            return created
        } catch {
            if let cleanUp { try? jobFiles.remove(cleanUp) }
            if case .duplicateName = error as? JobStoreError {
                throw APIError(status: 409, code: "ConflictException", message: "a transcription job named '\(job.name)' already exists; job names are unique")
            }
            throw APIError(status: 500, code: "InternalFailure", message: "the job store failed: \(error)")
        }
    }

    /// Stores uploaded media where every server that may decode the job reads it; returns its path.
    func storeMedia(_ media: Data) throws(APIError) -> String {
        guard media.count <= jobFiles.maximumFileBytes else {
            throw APIError(status: 413, code: "PayloadTooLarge", message: "the media has \(media.count) bytes; this service keeps job media up to \(jobFiles.maximumFileBytes) bytes")
        }
        let path = DataFolder.mediaPath(job: UUID().uuidString)
        do { try jobFiles.write(media, to: path) } catch { throw APIError(status: 500, code: "InternalFailure", message: "cannot store the media: \(error)") }
        return path
    }

    /// The media path of a job on the S3 object `s3://bucket/key`: the object itself when objects and job files are
    /// both this server's folder, else a copy in the job files (a shared object store is not where workers read media,
    /// and other servers cannot read this folder); the second value is that copy, to remove when the job is refused.
    /// 400 when `uri` is not such a URI or names no object held here.
    func jobMedia(forMediaURI uri: String) throws(APIError) -> (path: String, copy: String?) {
        guard uri.hasPrefix("s3://") else { throw .badRequest("InvalidParameter", "the media URI must be s3://bucket/key naming an object stored here") }
        let rest = uri.dropFirst(5)
        guard let slash = rest.firstIndex(of: "/") else { throw .badRequest("InvalidParameter", "'\(uri.prefix(200))' is not a valid s3://bucket/key") }
        let bucket = String(rest[..<slash])
        let key = String(rest[rest.index(after: slash)...])
        guard let path = DataFolder.objectPath(bucket: bucket, key: key) else {
            throw .badRequest("InvalidParameter", "'\(uri.prefix(200))' is not a valid s3://bucket/key")
        }
        let object: StoredObject?
        do { object = try objects.object(bucket: bucket, key: key) } catch {
            throw APIError(status: 500, code: "InternalFailure", message: "the object store failed: \(error)")
        }
        guard let object else {
            throw .badRequest("InvalidParameter", "the media \(uri.prefix(200)) does not exist; upload it first with PUT /bucket/key")
        }
        guard jobFilesAreShared || objectsAreShared else { return (path, nil) }
        let copy = try storeMedia(object.data)
        return (copy, copy)
    }

    static func waitSeconds(_ request: HTTPRequest, maximum: Double) throws(APIError) -> Double {
        guard let text = request.query["wait"] else { return 0 }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= maximum else {
            throw .badRequest("InvalidParameter", "wait must be a number of seconds from 0 to \(Int(maximum))")
        }
        return seconds
    }

    /// The job named `name`, after waiting up to `wait` seconds for it to finish.
    func waitForJob(_ name: String, wait: Double) throws(APIError) -> TranscriptionJob {
        let deadline = Date().addingTimeInterval(wait)
        while true {
            let seen = events.currentGeneration
            let job: TranscriptionJob?
            do { job = try store.job(named: name) } catch { throw APIError(status: 500, code: "InternalFailure", message: "the job store failed: \(error)") }
            guard let job else { throw .notFound("NotFoundException", "no transcription job named '\(name.prefix(200))'") }
            if job.status.isFinal || Date() >= deadline || isDraining { return job }
            events.waitForChange(after: seen, until: deadline)
        }
    }

    private func getJob(_ name: String, wait: Double) throws(APIError) -> HTTPResponse {
        .json(200, NativeJobRepresentation.object(try waitForJob(name, wait: wait), baseURL: baseURL.get()))
    }

    private func listJobs(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        var status: JobStatus?
        if let text = request.query["status"] {
            guard let parsed = JobStatus(rawValue: text) else {
                throw .badRequest("InvalidParameter", "status must be one of \(JobStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            status = parsed
        }
        var limit = Self.defaultPageSize
        if let text = request.query["maxResults"] {
            guard let value = Int(text), (1...Self.maximumPageSize).contains(value) else { throw .badRequest("InvalidParameter", "maxResults must be from 1 to \(Self.maximumPageSize)") }
            limit = value
        }
        let page = try listPage(status: status, nextToken: request.query["nextToken"], limit: limit)
        let base = baseURL.get()
        return .json(200, .object(["jobs": .array(page.jobs.map { NativeJobRepresentation.object($0, baseURL: base) }), "nextToken": .string(page.nextToken)]))
    }

    func listPage(status: JobStatus?, nextToken: String?, limit: Int) throws(APIError) -> JobPage {
        do {
            return try store.list(status: status, nextToken: nextToken, limit: limit)
        } catch let error as JobStoreError {
            throw .badRequest("InvalidParameter", error.description)
        } catch {
            throw APIError(status: 500, code: "InternalFailure", message: "the job store failed: \(error)")
        }
    }

    /// Deletes the job, its uploaded media and its transcript.
    func removeJob(_ name: String) throws(APIError) -> TranscriptionJob {
        let deleted: TranscriptionJob?
        do { deleted = try store.delete(named: name) } catch { throw APIError(status: 500, code: "InternalFailure", message: "the job store failed: \(error)") }
        guard let deleted else { throw .notFound("NotFoundException", "no transcription job named '\(name.prefix(200))'") }
        if deleted.request.mediaPath.hasPrefix("media/") { try? jobFiles.remove(deleted.request.mediaPath) }
        try? jobFiles.remove(DataFolder.transcriptPath(job: name))
        events.forget(name)
        return deleted
    }

    private func deleteJob(_ name: String) throws(APIError) -> HTTPResponse {
        _ = try removeJob(name)
        return HTTPResponse(status: 204)
    }

    private func transcript(_ name: String) throws(APIError) -> HTTPResponse {
        let job = try waitForJob(name, wait: 0)
        guard job.status == .completed, let path = job.transcriptPath, let data = try? jobFiles.read(path) else {
            let why = job.status == .failed ? "it failed: \(job.failureReason ?? "")" : "it is \(job.status.rawValue); wait with GET /v1/transcription-jobs/\(name)?wait=60"
            throw APIError(status: 409, code: "TranscriptNotReady", message: "job '\(name)' has no transcript: \(why)")
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: .bytes(data))
    }

    // MARK: Server-Sent Events

    private func eventStream(_ name: String) throws(APIError) -> HTTPResponse {
        let job = try waitForJob(name, wait: 0)
        let cursor = EventCursor()
        let base = baseURL.get()
        let initial = ServerSentEvent(name: "status", data: JSONValue.object(["name": .string(name), "status": .string(job.status.rawValue)]).serialized())
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"], body: .stream { [self] in
            cursor.withLock { state -> Data? in
                // Draining closes open streams so the listener can stop; clients reconnect to the next server.
                if state.finished || isDraining { return nil }
                if !state.sentInitial {
                    state.sentInitial = true
                    // Jobs this process has seen replay their log from QUEUED; others start with the stored status.
                    if !events.events(for: name, from: 0, until: Date()).known { return Data(initial.wireFormat.utf8) }
                }
                let (events, closed, known) = events.events(for: name, from: state.index, until: Date().addingTimeInterval(Self.eventsKeepAliveSeconds))
                state.index += events.count
                var text = events.map(\.wireFormat).joined()
                if closed {
                    state.finished = true
                } else if !known || events.isEmpty {
                    // No live log: the job finished before this process started, was deleted, or has not moved yet.
                    guard let current = try? store.job(named: name) else {
                        state.finished = true
                        return Data((text + ServerSentEvent(name: "deleted", data: JSONValue.object(["name": .string(name)]).serialized()).wireFormat).utf8)
                    }
                    if current.status.isFinal {
                        state.finished = true
                        let event = ServerSentEvent(name: current.status == .completed ? "completed" : "failed", data: NativeJobRepresentation.object(current, baseURL: base).serialized())
                        text += event.wireFormat
                    } else if events.isEmpty {
                        text += ": keep-alive\n\n"
                    }
                }
                return Data(text.utf8)
            }
        })
    }
}

/// Where one events stream is: only its connection's thread uses it, the lock keeps the compiler and readers honest.
private final class EventCursor: Sendable {
    struct State {
        var index = 0
        var sentInitial = false
        var finished = false
    }

    private let state = Mutex(State())
    func withLock(_ body: (inout State) -> Data?) -> Data? { state.withLock { body(&$0) } }
}
