import AudioInput
import FlightCore
import Foundation

/// A `Sendable` front for one `FlightRecognizer`: an actor whose jobs all run on one dedicated thread.
///
/// The recognizer and its PocketSphinx decoders never leave that thread, and decoding (CPU-bound, tens of
/// milliseconds per chunk) does not block Swift's cooperative pool. One utterance at a time: a second `events(for:)`
/// stream started while one is running fails with `RecognizerError` (use one service per concurrent stream).
public actor RecognitionService {
    private let recognizer: FlightRecognizer
    private let executor: DedicatedThreadExecutor
    private var streaming = false

    /// Runs this actor's jobs on its own thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Loads the models and a grammar of `vocabulary`; throws `RecognizerError` naming a missing model file.
    public init(vocabulary: FlightVocabulary, configuration: RecognizerConfiguration = RecognizerConfiguration()) throws {
        recognizer = try FlightRecognizer(vocabulary: vocabulary, configuration: configuration)
        executor = DedicatedThreadExecutor(name: "FlightVoice.recognizer")
    }

    deinit { executor.shutdown() }

    /// Decodes a whole clip (16 kHz mono) as one utterance.
    public func recognize(samples: [Int16]) throws -> RecognitionResult {
        try recognizer.recognize(samples: samples)
    }

    /// Decodes a whole decoded clip as one utterance.
    public func recognize(_ clip: AudioClip) throws -> RecognitionResult {
        try recognizer.recognize(clip)
    }

    /// Switches to a new day's flights.
    public func load(_ vocabulary: FlightVocabulary) throws {
        try recognizer.load(vocabulary)
    }

    /// Streams events for one utterance read from `audio` (chunks of 16 kHz mono samples): speech start and partial
    /// hypotheses as they change, then `.final` when the sequence ends. Cancelling the consumer stops decoding.
    ///
    /// `bufferingPolicy`: events are few (at most one partial per 64 ms of audio) so the default keeps them all;
    /// a consumer that must bound memory can pass `.bufferingNewest(n)`, which always keeps the final event.
    public nonisolated func events<Audio: AsyncSequence & Sendable>(
        for audio: Audio,
        bufferingPolicy: AsyncThrowingStream<RecognitionEvent, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncThrowingStream<RecognitionEvent, any Error> where Audio.Element == [Int16] {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: RecognitionEvent.self, throwing: (any Error).self,
                                                                    bufferingPolicy: bufferingPolicy)
        let task = Task {
            do {
                try await self.beginStream()
                do {
                    for try await chunk in audio {
                        try Task.checkCancellation()
                        for event in await self.process(chunk) { continuation.yield(event) }
                    }
                    try Task.checkCancellation()
                    continuation.yield(.final(try await self.finishStream()))
                    continuation.finish()
                } catch {
                    await self.abandonStream()
                    throw error
                }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func beginStream() throws {
        guard !streaming else {
            throw RecognizerError(operation: "start stream", context: "this recognizer is already decoding a stream; use one RecognitionService per concurrent stream")
        }
        streaming = true
        recognizer.reset()
    }

    private func process(_ chunk: [Int16]) -> [RecognitionEvent] {
        recognizer.process(chunk[...])
    }

    private func finishStream() throws -> RecognitionResult {
        defer { streaming = false }
        return try recognizer.finish()
    }

    private func abandonStream() {
        recognizer.reset()
        streaming = false
    }
}

/// A serial executor that runs every job on one thread it owns. Thread-safe.
final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    /// Starts the thread.
    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the queued jobs have run.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty && stopping {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}
