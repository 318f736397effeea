import Foundation

/// An ALSA playback device that plays 16-bit mono audio and can be stopped mid-sentence.
///
/// Thread rule: owns its PCM; `play` blocks the calling thread, and `stop` (through the `StopFlag` given to `play`)
/// may be set from any thread. Not `Sendable`.
public final class Speaker {
    public let device: String
    /// Samples written per step (about 46 ms at 22 kHz): how quickly a stop request takes effect.
    public static let stepSamples = 1024
    private let pcm: PCMDevice

    /// Opens playback device `device` at `sampleRate`.
    public init(device: String = "default", sampleRate: Int) throws(AudioDeviceError) {
        self.device = device
        pcm = try PCMDevice(name: device, direction: .playback, rates: [sampleRate])
    }

    /// Plays `samples`, paced in real time, until done or until `stop` is set (queued audio is then dropped).
    /// Returns true when it played to the end.
    @discardableResult
    public func play(_ samples: [Int16], stop: StopFlag) throws(AudioDeviceError) -> Bool {
        var pacer = RealTimePacer()
        var offset = 0
        while offset < samples.count {
            if stop.isSet {
                pcm.dropQueued()
                return false
            }
            let end = min(samples.count, offset + Self.stepSamples)
            try samples.withUnsafeBufferPointer { all throws(AudioDeviceError) in
                try pcm.write(UnsafeBufferPointer(rebasing: all[offset..<end]))
            }
            pacer.account(samples: end - offset, sampleRate: pcm.sampleRate)
            offset = end
        }
        pcm.drain()
        return true
    }
}
