import AudioDevices
import Foundation

/// Speaks sentences through espeak-ng and an ALSA playback device on a thread of its own, one at a time; a new
/// sentence or `stop()` cuts the current one short.
///
/// Thread rule: `SpeechSynthesizer` (process-global espeak-ng state) and `Speaker` are created and used only on the
/// voice thread; `say`/`stop` may be called from any thread. `@unchecked Sendable` because the shared fields are
/// guarded by `condition`.
final class VoiceOutput: @unchecked Sendable {
    /// What the voice is doing, reported from the voice thread.
    enum Activity: Sendable { case started, finished, failed(AudioDeviceError) }

    private let condition = NSCondition()
    private var queued: String?
    private var stopping = false
    private let interrupt = StopFlag()
    private let report: @Sendable (Activity) -> Void

    /// Starts the voice thread, speaking on playback device `device`; `report` hears when speech starts and ends.
    init(device: String, report: @escaping @Sendable (Activity) -> Void) {
        self.report = report
        let thread = Thread { [self] in run(device: device) }
        thread.name = "FlightVoice.voice"
        thread.start()
    }

    /// Speaks `text`, interrupting whatever is being said.
    func say(_ text: String) {
        condition.lock()
        queued = text
        interrupt.set()
        condition.signal()
        condition.unlock()
    }

    /// Stops speaking at once.
    func stop() {
        condition.lock()
        queued = nil
        interrupt.set()
        condition.unlock()
    }

    /// Ends the voice thread after the current sentence is cut.
    func shutdown() {
        condition.lock()
        stopping = true
        queued = nil
        interrupt.set()
        condition.signal()
        condition.unlock()
    }

    private func run(device: String) {
        var synthesizer: SpeechSynthesizer?
        var speaker: Speaker?
        while true {
            condition.lock()
            while queued == nil && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let text = queued!
            queued = nil
            interrupt.clear()
            condition.unlock()
            do {
                let voice = try synthesizer ?? SpeechSynthesizer()
                synthesizer = voice
                let samples = try voice.synthesize(text)
                // Kept open between sentences; reopened after a failure, so a device that comes back is used again.
                let output = try speaker ?? Speaker(device: device, sampleRate: voice.sampleRate)
                speaker = output
                report(.started)
                defer { report(.finished) }
                do {
                    try output.play(samples, stop: interrupt)
                } catch {
                    speaker = nil
                    throw error
                }
            } catch let error as AudioDeviceError {
                report(.failed(error))
            } catch {
                report(.failed(AudioDeviceError(kind: .failed, operation: "speak", device: device, code: 0, message: String(describing: error))))
            }
        }
    }
}
