import AudioInput
import Foundation

/// An ALSA capture device delivering 16 kHz mono 16-bit audio in fixed-size chunks.
///
/// Opens the device at 16 kHz; a device that cannot run at 16 kHz is opened at 48 or 44.1 kHz and converted with
/// `AudioInput.Resampler`. Thread rule: owns its PCM; use it from one thread. Not `Sendable` — use `chunks(…)` to
/// read on a thread of its own from async code.
public final class Microphone {
    /// The rate of the samples delivered, in samples per second.
    public static let sampleRate = 16_000
    /// Samples per chunk delivered (64 ms at 16 kHz): the step the live recognizer is fed with.
    public static let defaultChunkSamples = 1024
    /// Chunks kept while the consumer is busy (about 30 s): a final decode on a loaded machine can take seconds, and
    /// the words said meanwhile ("yes" right after a question) must not be lost; older audio is dropped beyond that.
    public static let defaultBufferedChunks = 470
    /// Rates tried after 16 kHz when the device refuses it, converted in software.
    static let fallbackRates = [48_000, 44_100]

    public let device: String
    public let chunkSamples: Int
    private let pcm: PCMDevice
    private let resampler: Resampler?
    private var pacer = RealTimePacer()
    private var raw: [Int16]
    private var pending: [Int16] = []

    /// Opens capture device `device` ("default", "hw:1", a name from asound.conf); throws `.unavailable` when it does
    /// not exist or is busy.
    public init(device: String = "default", chunkSamples: Int = Microphone.defaultChunkSamples) throws(AudioDeviceError) {
        self.device = device
        self.chunkSamples = chunkSamples
        pcm = try PCMDevice(name: device, direction: .capture, rates: [Self.sampleRate] + Self.fallbackRates)
        do {
            resampler = pcm.sampleRate == Self.sampleRate ? nil : try Resampler(inputRate: pcm.sampleRate, outputRate: Self.sampleRate)
        } catch {
            throw AudioDeviceError(kind: .failed, operation: error.operation, device: device, code: error.code, message: error.message)
        }
        raw = [Int16](repeating: 0, count: chunkSamples * pcm.sampleRate / Self.sampleRate)
    }

    /// Blocks for the next `chunkSamples` samples; throws `.unavailable` when the device goes away.
    public func read() throws(AudioDeviceError) -> [Int16] {
        guard let resampler else {
            try readRaw()
            return raw
        }
        while pending.count < chunkSamples {
            try readRaw()
            pending += SampleConversion.int16(resampler.process(SampleConversion.float(raw)))
        }
        defer { pending.removeFirst(chunkSamples) }
        return Array(pending.prefix(chunkSamples))
    }

    private func readRaw() throws(AudioDeviceError) {
        try raw.withUnsafeMutableBufferPointer { buffer throws(AudioDeviceError) in try pcm.read(into: buffer) }
        pacer.account(samples: raw.count, sampleRate: pcm.sampleRate)
    }

    /// Opens `device` and delivers its audio as chunks, read on a thread of the sequence's own; the stream ends with
    /// the device's error when it fails (including when it cannot be opened). Cancelling the consumer closes it.
    public static func chunks(device: String = "default", chunkSamples: Int = defaultChunkSamples,
                              bufferingPolicy: AsyncThrowingStream<[Int16], any Error>.Continuation.BufferingPolicy = .bufferingNewest(defaultBufferedChunks))
        -> AsyncThrowingStream<[Int16], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [Int16].self, throwing: (any Error).self, bufferingPolicy: bufferingPolicy)
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        let thread = Thread {
            do {
                let microphone = try Microphone(device: device, chunkSamples: chunkSamples)
                while !stop.isSet {
                    continuation.yield(try microphone.read())
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "FlightVoice.microphone"
        thread.start()
        return stream
    }
}

/// A flag one thread sets and another polls. Thread-safe.
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    public init() {}
    public var isSet: Bool { lock.withLock { value } }
    public func set() { lock.withLock { value = true } }
    public func clear() { lock.withLock { value = false } }
}
