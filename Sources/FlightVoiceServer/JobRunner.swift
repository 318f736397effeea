import AudioInput
import FlightCore
import Foundation
import Presenter
import Recognizer
import Synchronization
import TranscriptionJobs

/// Runs one claimed job on a worker: decodes its media (streaming partial hypotheses to the job's events), writes
/// the Transcribe document, and finishes the job in the store together with its callback delivery.
struct JobRunner: Sendable {
    /// Where an `OutputBucketName` transcript object goes.
    let objects: any ObjectStore
    /// Where media are read and transcripts written (the folder, or a store every server shares).
    let jobFiles: any JobFileStore
    let store: any TranscriptionJobStore
    let events: JobEventHub
    let metrics: ServiceMetrics
    let leases: LeaseKeeper
    let configuration: ServiceConfiguration
    /// The job as clients see it (GET, callbacks, the final event).
    let represent: @Sendable (TranscriptionJob) -> JSONValue
    /// Called once the outcome is committed (wakes the callback sender).
    let onFinished: @Sendable () -> Void
    /// Tells the other servers of a fleet of each partial hypothesis (nil on one server).
    let announcePartial: (@Sendable (_ job: String, _ transcript: String) -> Void)?
    /// Samples fed to the streaming decoder per step (64 ms at 16 kHz), so partial hypotheses come at that pace.
    static let streamingChunkSamples = 1024

    func run(_ job: TranscriptionJob, owner: String, recognizer: FlightRecognizer, answerer: SpokenQueryAnswerer) {
        leases.hold(.job(job.name), owner: owner)
        defer { leases.release(.job(job.name)) }
        events.publishStatus(job.name, .inProgress)
        let outcome = process(job, recognizer: recognizer, answerer: answerer)
        var finished = job
        finished.status = outcome.status
        finished.failureReason = outcome.failureReason
        finished.answerJSON = outcome.answerJSON
        finished.transcriptPath = outcome.transcriptPath
        finished.audioSeconds = outcome.audioSeconds
        finished.completedAt = Date()
        finished.leaseOwner = nil
        finished.leaseExpiresAt = nil
        let document = represent(finished).serialized()
        let payload = job.request.callbackURL == nil ? nil : document
        guard (try? store.finish(name: job.name, owner: owner, outcome: outcome, callbackPayload: payload, now: finished.completedAt!)) == true else {
            // The lease was lost: the job was deleted meanwhile (its transcript must not linger), or another worker
            // took it over after the lease expired and reports it itself.
            if let path = outcome.transcriptPath, (try? store.job(named: job.name)) == .some(nil) {
                try? jobFiles.remove(path)
            }
            return
        }
        onFinished()
        events.publish(job.name, ServerSentEvent(name: outcome.status == .completed ? "completed" : "failed", data: document), closes: true)
    }

    private func process(_ job: TranscriptionJob, recognizer: FlightRecognizer, answerer: SpokenQueryAnswerer) -> JobOutcome {
        let request = job.request
        guard let data = try? jobFiles.read(request.mediaPath) else {
            return .failed("The media file \(request.mediaURI ?? request.mediaPath) cannot be found or read.")
        }
        guard data.count <= configuration.maximumMediaBytes else {
            return .failed("Invalid file size: file size too large. Maximum file size is \(configuration.maximumMediaBytes) bytes.")
        }
        let rawRate = request.mediaFormat == MediaFormats.rawPCM ? request.mediaSampleRateHertz : nil
        let clip: AudioClip
        do {
            clip = try AudioFileDecoder.decode(data: data, name: request.name, rawSampleRate: rawRate)
        } catch {
            return .failed("Unsupported media format: \(error.description)")
        }
        if let declared = request.mediaFormat, let detected = MediaFormats.transcribeName(forContainer: clip.source.container), !MediaFormats.matches(declared: declared, detected: detected) {
            return .failed("The media format provided does not match the detected media format: MediaFormat is \(declared) but the file is \(detected).")
        }
        if let rate = request.mediaSampleRateHertz, rate != clip.source.sampleRate {
            return .failed("The sample rate provided does not match the detected sample rate: MediaSampleRateHertz is \(rate) but the file is \(clip.source.sampleRate) Hz.")
        }
        let started = Date()
        let report = answer(clip, name: request.name, recognizer: recognizer, answerer: answerer)
        metrics.countDecode(seconds: Date().timeIntervalSince(started), audioSeconds: clip.duration)
        if report.answer.status == .error {
            return .failed(report.error ?? "The media could not be transcribed.")
        }
        let transcriptPath = DataFolder.transcriptPath(job: request.name)
        let document = Data((Self.transcribeDocument(report, jobName: request.name, accountID: configuration.accountID, maxAlternatives: request.maxAlternatives).serialized(pretty: true) + "\n").utf8)
        do {
            try jobFiles.write(document, to: transcriptPath)
            if let bucket = request.outputBucket {
                let key = request.outputKey ?? "\(request.name).json"
                guard DataFolder.objectPath(bucket: bucket, key: key) != nil else {
                    return .failed("The output location s3://\(bucket)/\(request.outputKey ?? "") is not a valid bucket and key.")
                }
                try objects.putObject(document, bucket: bucket, key: key, now: Date())
            }
        } catch {
            return .failed("Internal failure: the transcript could not be written: \(error)")
        }
        var answerObject = ClipReportOutput.jsonObject(report)
        if case .object(var members) = answerObject {
            members["path"] = nil
            answerObject = .object(members)
        }
        return .completed(answerJSON: answerObject.serialized(), transcriptPath: transcriptPath, audioSeconds: clip.duration)
    }

    /// Decodes `clip` chunk by chunk, publishing partial hypotheses, then answers the whole utterance (the final
    /// decode is the same whole-utterance decode `recognize` makes; clips longer than the streaming cap skip partials).
    private func answer(_ clip: AudioClip, name: String, recognizer: FlightRecognizer, answerer: SpokenQueryAnswerer) -> ClipReport {
        let started = Date()
        do {
            let result: RecognitionResult
            if clip.duration <= recognizer.configuration.maximumUtteranceSeconds {
                recognizer.reset()
                var index = 0
                while index < clip.samples.count {
                    let end = min(index + Self.streamingChunkSamples, clip.samples.count)
                    for case .partial(let text) in recognizer.process(clip.samples[index..<end]) {
                        events.publish(name, Self.partialEvent(job: name, transcript: text))
                        announcePartial?(name, text)
                    }
                    index = end
                }
                result = try recognizer.finish()
            } else {
                result = try recognizer.recognize(clip)
            }
            let answer = try answerer.answer(for: result)
            return ClipReport(path: name, answer: answer, transcript: result.transcript, audioDuration: clip.duration,
                              processingSeconds: Date().timeIntervalSince(started), error: nil)
        } catch {
            let message = String(describing: error)
            let answer = QueryAnswer(status: .error, heard: "", flightNumber: nil, candidates: [], lookup: nil, suggestions: [], message: message)
            return ClipReport(path: name, answer: answer, transcript: .empty, audioDuration: clip.duration,
                              processingSeconds: Date().timeIntervalSince(started), error: message)
        }
    }

    /// The `partial` event of job `name`'s stream: what the decode has heard so far.
    static func partialEvent(job name: String, transcript: String) -> ServerSentEvent {
        ServerSentEvent(name: "partial", data: JSONValue.object(["name": .string(name), "transcript": .string(transcript)]).serialized())
    }

    /// The Transcribe result document for a job: Presenter's document with the job's own name, and with
    /// `maxAlternatives`, Transcribe's `results.segments`: one segment over the utterance whose alternatives are the
    /// transcript and up to `maxAlternatives - 1` other readings the recognizer weighed.
    static func transcribeDocument(_ report: ClipReport, jobName: String, accountID: String, maxAlternatives: Int? = nil) -> JSONValue {
        guard case .object(var members) = TranscribeDocument.object(for: report, accountID: accountID) else { return .null }
        members["jobName"] = .string(jobName)
        if let maxAlternatives, case .object(var results) = members["results"], case .array(let items) = results["items"] ?? .array([]) {
            let words = report.transcript.words
            let readings = [(report.transcript.text, items)] + report.transcript.alternatives.filter { $0 != report.transcript.text }.map { ($0, [JSONValue]()) }
            results["segments"] = .array([.object([
                "start_time": .string(String(format: "%.3f", words.first?.start ?? 0)),
                "end_time": .string(String(format: "%.3f", words.last?.end ?? report.audioDuration)),
                "alternatives": .array(readings.prefix(maxAlternatives).map { .object(["transcript": .string($0.0), "items": .array($0.1)]) }),
            ])])
            members["results"] = .object(results)
        }
        return .object(members)
    }
}

/// Renews the leases this process holds (the jobs it is decoding, the callbacks it is sending) every third of the
/// lease, on one thread of its own: while the process lives, nobody else takes them over.
final class LeaseKeeper: Sendable {
    /// What a lease is on.
    enum Held: Hashable, Sendable {
        case job(String)
        case callback(Int64)
    }

    private let held = Mutex<[Held: String]>([:])
    private let store: any TranscriptionJobStore
    private let leaseSeconds: Double

    init(store: any TranscriptionJobStore, leaseSeconds: Double) {
        self.store = store
        self.leaseSeconds = leaseSeconds
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: leaseSeconds / 3)
                let current = held.withLock { $0 }
                for (lease, owner) in current {
                    let until = Date().addingTimeInterval(leaseSeconds)
                    switch lease {
                    case .job(let name): _ = try? store.renewLease(name: name, owner: owner, until: until)
                    case .callback(let id): _ = try? store.renewCallbackLease(id: id, owner: owner, until: until)
                    }
                }
            }
        }
        thread.name = "FlightVoice.leases"
        thread.start()
    }

    func hold(_ lease: Held, owner: String) { held.withLock { $0[lease] = owner } }
    func release(_ lease: Held) { held.withLock { $0[lease] = nil } }
}
