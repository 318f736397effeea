import Dispatch
import Synchronization
@testable import Recognizer
import Testing
import Whisper

/// FFTW's planner is one per process and not thread-safe: the neural pass's log-mel (Whisper) and the audio checks'
/// transforms (Recognizer) plan on the batch workers' threads at once, so both must plan under one lock. With a lock
/// per module, `eval --jobs 2 --neural` aborted once in a benchmark run ("double free or corruption", 2026-12-05).
@Suite("FFTW plans made on several threads at once")
struct FFTWPlanningTests {
    @Test("spectrograms and audio transforms planned side by side on several threads, many times, are all whole")
    func plansSideBySide() throws {
        let samples = (0..<1_600).map { Float(($0 * 37) % 200 - 100) / 1_000 }
        let frames = LogMelSpectrogram.frameCount(forSampleCount: samples.count, marginSeconds: 0)
        let expected = LogMelSpectrogram(samples: samples, frameCount: frames)
        let rounds = 400
        let matches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for _ in 0..<rounds {
                if worker % 2 == 0 {
                    let spectrogram = LogMelSpectrogram(samples: samples, frameCount: frames)
                    if spectrogram.values == expected.values { matches.withLock { $0 += 1 } }
                } else if let transform = try? RealFourierTransform(size: 512 + 2 * (worker % 3)) {
                    if transform.binCount == transform.size / 2 + 1 { matches.withLock { $0 += 1 } }
                }
            }
        }
        #expect(matches.withLock { $0 } == 4 * rounds)
    }
}
