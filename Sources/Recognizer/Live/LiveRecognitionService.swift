import FlightCore
import Foundation

/// A `Sendable` front for one `LiveRecognizer`: an actor whose jobs all run on one dedicated thread, like
/// `RecognitionService`, for front ends that listen to a microphone (kiosk, `flightvoice listen`).
public actor LiveRecognitionService {
    private let live: LiveRecognizer
    private let executor: DedicatedThreadExecutor

    /// Runs this actor's jobs on its own thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Loads the models and a grammar of `vocabulary`; throws `RecognizerError` naming a missing model file.
    public init(vocabulary: FlightVocabulary, configuration: RecognizerConfiguration = RecognizerConfiguration(),
                live: LiveConfiguration = LiveConfiguration()) throws {
        self.live = try LiveRecognizer(recognizer: FlightRecognizer(vocabulary: vocabulary, configuration: configuration.listeningAlone), configuration: live)
        executor = DedicatedThreadExecutor(name: "FlightVoice.live-recognizer")
    }

    deinit { executor.shutdown() }

    /// Takes the next chunk of microphone audio (16 kHz mono).
    public func process(_ chunk: [Int16]) throws -> [LiveEvent] { try live.process(chunk) }

    /// Ends the stream, decoding an utterance in progress.
    public func finish() throws -> [LiveEvent] { try live.finish() }

    /// Forgets an utterance in progress.
    public func reset() { live.reset() }

    /// Whether short utterances are tried as replies first (see `LiveRecognizer.expectsReply`).
    public func expectReply(_ expects: Bool) { live.expectsReply = expects }

    /// Switches to a new day's flights.
    public func load(_ vocabulary: FlightVocabulary) throws { try live.load(vocabulary) }

    /// Streams the events of every utterance heard in `audio` until it ends (then an utterance in progress is decoded)
    /// or the consumer cancels. Events are few (partials at most every 64 ms), so all are kept.
    public nonisolated func events<Audio: AsyncSequence & Sendable>(for audio: Audio) -> AsyncThrowingStream<LiveEvent, any Error>
        where Audio.Element == [Int16] {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LiveEvent.self, throwing: (any Error).self)
        let task = Task {
            do {
                for try await chunk in audio {
                    try Task.checkCancellation()
                    for event in try await self.process(chunk) { continuation.yield(event) }
                }
                for event in try await self.finish() { continuation.yield(event) }
                continuation.finish()
            } catch {
                await self.reset()
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
