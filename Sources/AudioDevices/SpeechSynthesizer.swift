import CEspeakNG
import Foundation
import Synchronization

/// Turns sentences into audio with espeak-ng used as a library, in its synchronous mode (no audio output of its own:
/// the samples are played through `Speaker`, which is what makes speech interruptible).
///
/// Thread rule: espeak-ng keeps process-global state, so at most one synthesizer exists at a time (a second `init`
/// throws) and it must be used from one thread. Not `Sendable`.
public final class SpeechSynthesizer {
    /// The voice: espeak-ng's US English is far clearer than its default.
    public static let defaultVoice = "en-us"
    /// Speaking rate in words per minute: a little slower than espeak's 175, for travellers and loud halls.
    public static let defaultWordsPerMinute = 140

    /// The rate of the samples `synthesize` returns, in samples per second (espeak-ng's: 22050).
    public let sampleRate: Int

    private static let alive = Mutex(false)

    public init(voice: String = defaultVoice, wordsPerMinute: Int = defaultWordsPerMinute) throws(AudioDeviceError) {
        let claimed = Self.alive.withLock { alive in
            defer { alive = true }
            return !alive
        }
        guard claimed else {
            throw AudioDeviceError(kind: .failed, operation: "espeak_Initialize", device: voice, code: 0,
                                   message: "espeak-ng is process-global: only one SpeechSynthesizer may exist at a time")
        }
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard rate > 0 else {
            Self.alive.withLock { $0 = false }
            throw AudioDeviceError(kind: .unavailable, operation: "espeak_Initialize", device: voice, code: rate,
                                   message: "espeak-ng data not found (is the espeak-ng-data package installed?)")
        }
        sampleRate = Int(rate)
        espeak_SetSynthCallback { samples, count, events in
            guard let samples, count > 0, let sink = events?.pointee.user_data else { return 0 }
            Unmanaged<SampleSink>.fromOpaque(sink).takeUnretainedValue().samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
            return 0
        }
        let voiceResult = espeak_SetVoiceByName(voice)
        guard voiceResult == EE_OK else {
            espeak_Terminate()
            Self.alive.withLock { $0 = false }
            throw AudioDeviceError(kind: .failed, operation: "espeak_SetVoiceByName", device: voice, code: Int32(voiceResult.rawValue),
                                   message: "espeak-ng has no voice '\(voice)'")
        }
        espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
    }

    deinit {
        espeak_Terminate()
        Self.alive.withLock { $0 = false }
    }

    /// The samples (mono, 16-bit, `sampleRate`) of `text` spoken.
    public func synthesize(_ text: String) throws(AudioDeviceError) -> [Int16] {
        let sink = SampleSink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        let result = text.withCString { chars in
            espeak_Synth(chars, strlen(chars) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_AUTO), nil, context.toOpaque())
        }
        guard result == EE_OK else {
            throw AudioDeviceError(kind: .failed, operation: "espeak_Synth", device: "espeak-ng", code: Int32(result.rawValue),
                                   message: "could not synthesize \"\(text)\"")
        }
        espeak_Synchronize()
        return sink.samples
    }
}

/// Where the synthesis callback collects samples; lives for one `synthesize` call on the synthesizer's thread.
private final class SampleSink {
    var samples: [Int16] = []
}
