import CALSA
import Foundation

/// One open ALSA PCM (capture or playback) in 16-bit mono interleaved mode.
///
/// Thread rule: owns its `snd_pcm_t`, closed in `deinit`; use it from one thread at a time. Not `Sendable`.
final class PCMDevice {
    enum Direction { case capture, playback }

    let name: String
    let direction: Direction
    /// The rate the device actually runs at, in samples per second.
    let sampleRate: Int
    private let handle: OpaquePointer

    /// Latency asked of ALSA, in microseconds: short enough for a live query, long enough not to overrun on a busy core.
    static let latencyMicroseconds: UInt32 = 100_000

    /// Opens `name` and sets 16-bit mono at the first rate of `rates` the device accepts (ALSA's own resampling
    /// disallowed, so a refused rate is reported rather than converted badly).
    init(name: String, direction: Direction, rates: [Int]) throws(AudioDeviceError) {
        Self.silenceLibraryMessages()
        self.name = name
        self.direction = direction
        var opened: OpaquePointer?
        let stream = direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        let code = snd_pcm_open(&opened, name, stream, 0)
        guard code >= 0, let opened else {
            throw Self.error(.unavailable, "snd_pcm_open", name, code)
        }
        var lastCode: Int32 = 0
        for rate in rates {
            lastCode = snd_pcm_set_params(opened, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(rate), 0,
                                          Self.latencyMicroseconds)
            if lastCode >= 0 {
                handle = opened
                sampleRate = rate
                return
            }
        }
        snd_pcm_close(opened)
        throw Self.error(.failed, "snd_pcm_set_params (16-bit mono at \(rates.map(String.init).joined(separator: " or ")) Hz)", name, lastCode)
    }

    deinit { snd_pcm_close(handle) }

    /// Reads exactly `buffer.count` frames, recovering from an overrun; throws `.unavailable` when the device is gone.
    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(AudioDeviceError) {
        try transfer(buffer.count, operation: "snd_pcm_readi") { done in
            snd_pcm_readi(handle, buffer.baseAddress! + done, snd_pcm_uframes_t(buffer.count - done))
        }
    }

    /// Writes all of `samples`, recovering from an underrun.
    func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioDeviceError) {
        try transfer(samples.count, operation: "snd_pcm_writei") { done in
            snd_pcm_writei(handle, samples.baseAddress! + done, snd_pcm_uframes_t(samples.count - done))
        }
    }

    /// Calls `step` (given the frames done so far; it returns frames moved or a negative error) until `count` frames
    /// have moved.
    private func transfer(_ count: Int, operation: String, _ step: (Int) -> snd_pcm_sframes_t) throws(AudioDeviceError) {
        var done = 0
        while done < count {
            let moved = step(done)
            if moved >= 0 {
                done += Int(moved)
            } else {
                try recover(Int32(moved), operation: operation)
            }
        }
    }

    /// Lets queued playback finish.
    func drain() { snd_pcm_drain(handle) }

    /// Throws away queued playback at once.
    func dropQueued() {
        snd_pcm_drop(handle)
        snd_pcm_prepare(handle)
    }

    private func recover(_ code: Int32, operation: String) throws(AudioDeviceError) {
        // -EPIPE (overrun/underrun) and -ESTRPIPE (suspend) are recoverable; -ENODEV/-EIO mean the device went away.
        if snd_pcm_recover(handle, code, 1) < 0 {
            throw Self.error(code == -EPIPE ? .failed : .unavailable, operation, name, code)
        }
    }

    static func error(_ kind: AudioDeviceError.Kind, _ operation: String, _ device: String, _ code: Int32) -> AudioDeviceError {
        AudioDeviceError(kind: kind, operation: operation, device: device, code: code, message: String(cString: snd_strerror(code)))
    }

    private static let silenced: Void = flightvoice_alsa_silence_errors()

    /// alsa-lib prints its own copy of every error to stderr; FlightVoice reports them itself, once, in words.
    static func silenceLibraryMessages() { _ = silenced }
}

/// Keeps a device that never blocks (a file-backed test device, which delivers or swallows seconds of audio in
/// milliseconds) to real time; a real sound card blocks by itself and is never ahead.
struct RealTimePacer {
    private let clock = ContinuousClock()
    private var started: ContinuousClock.Instant?
    private var seconds = 0.0
    /// How far ahead of real time the audio may run before the caller is made to wait, in seconds.
    static let allowedLead = 0.05

    /// Counts `samples` at `sampleRate` and sleeps while the audio so far is ahead of the wall clock.
    mutating func account(samples: Int, sampleRate: Int) {
        let start = started ?? clock.now
        started = start
        seconds += Double(samples) / Double(sampleRate)
        let ahead = seconds - (clock.now - start).seconds
        if ahead > Self.allowedLead { Thread.sleep(forTimeInterval: ahead - Self.allowedLead) }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
