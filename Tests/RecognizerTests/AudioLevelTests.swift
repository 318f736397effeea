import Foundation
@testable import Recognizer
import Testing

@Suite("Loudness measures")
struct AudioLevelTests {
    /// Frame powers: noise at 1, speech at 10 000 (40 dB above), one louder frame.
    static func powers(speechAt frames: [Int], count: Int = 100) -> [Double] {
        (0..<count).map { frames.contains($0) ? ($0 == frames.first ? 20_000 : 10_000) : 1 }
    }

    @Test("speech-loud frames outside every word count, noise never does")
    func countsSpeechOutsideWords() {
        let speech = Array(20..<40) + Array(60..<72)
        let powers = Self.powers(speechAt: speech)
        let count = AudioLevel.unexplainedSpeechFrames(powers, levels: AudioLevel.noiseAndSpeechPower(powers), words: [20...39], margin: 2, belowSpeech: 10, aboveNoise: 20)
        #expect(count == 12)
        #expect(AudioLevel.unexplainedSpeechFrames(powers, levels: AudioLevel.noiseAndSpeechPower(powers), words: [20...39, 60...71], margin: 2, belowSpeech: 10, aboveNoise: 20) == 0)
    }

    @Test("frames just beside a word belong to it")
    func wordEdgesAreTheWords() {
        let powers = Self.powers(speechAt: Array(18..<42))
        #expect(AudioLevel.unexplainedSpeechFrames(powers, levels: AudioLevel.noiseAndSpeechPower(powers), words: [20...39], margin: 2, belowSpeech: 10, aboveNoise: 20) == 0)
        #expect(AudioLevel.unexplainedSpeechFrames(powers, levels: AudioLevel.noiseAndSpeechPower(powers), words: [20...39], margin: 0, belowSpeech: 10, aboveNoise: 20) == 4)
    }

    @Test("a word the decoder placed past the last whole frame is ignored, not a crash")
    func wordsPastTheEnd() {
        let powers = Self.powers(speechAt: Array(20..<40))
        #expect(AudioLevel.unexplainedSpeechFrames(powers, levels: AudioLevel.noiseAndSpeechPower(powers), words: [20...39, 120...130], margin: 5, belowSpeech: 10, aboveNoise: 20) == 0)
    }

    @Test("in noise as loud as the speech nothing counts: speech and noise cannot be told apart")
    func lowContrastCountsNothing() {
        let powers = (0..<100).map { $0 % 2 == 0 ? 10_000.0 : 3_000 }
        #expect(AudioLevel.unexplainedSpeechFrames(powers, levels: AudioLevel.noiseAndSpeechPower(powers), words: [0...10], margin: 0, belowSpeech: 10, aboveNoise: 20) == 0)
    }

    @Test("quiet edges are cut beyond their margin; the sounding part and its margin stay")
    func quietEdges() {
        // 50 dB of contrast: speech frames 300..<420 in 1000 frames of near-silence. The 10-frame windows that reach
        // into the speech (from frame 291 to 429) count as sounding, then the margin is added.
        let powers = (0..<1000).map { (300..<420).contains($0) ? 100_000.0 : 1 }
        #expect(AudioLevel.keptFrames(powers, belowLoudest: 40, edge: 50, gap: 10) == [241..<479])
        #expect(AudioLevel.keptFrames(powers, belowLoudest: 40, edge: 400, gap: 10) == [0..<829])
        #expect(AudioLevel.keptFrames(powers, belowLoudest: 60, edge: 50, gap: 10) == [0..<1000], "nothing is quiet enough")
    }

    @Test("a long pause between sounding parts is shortened to its margins; a short one stays whole")
    func pauses() {
        let long = (0..<1000).map { (100..<200).contains($0) || (600..<700).contains($0) ? 100_000.0 : 1 }
        #expect(AudioLevel.keptFrames(long, belowLoudest: 40, edge: 50, gap: 25) == [41..<234, 566..<759])
        let short = (0..<1000).map { (100..<200).contains($0) || (230..<330).contains($0) ? 100_000.0 : 1 }
        #expect(AudioLevel.keptFrames(short, belowLoudest: 40, edge: 50, gap: 25) == [41..<389])
    }

    @Test("noise within the contrast limit is never cut, nor is a clip too short to measure")
    func noisyAudioIsKeptWhole() {
        let powers = (0..<500).map { (200..<300).contains($0) ? 10_000.0 : 100 }
        #expect(AudioLevel.keptFrames(powers, belowLoudest: 40, edge: 50, gap: 25) == [0..<500])
        #expect(AudioLevel.keptFrames([1, 100_000, 1], belowLoudest: 40, edge: 0, gap: 0) == [0..<3])
    }

    @Test("quiet audio is raised to the level; audio at or above it, silence and a nil level are left alone")
    func raised() {
        #expect(AudioLevel.raised([100, -200], from: -40, to: -20) == [1_000, -2_000])
        #expect(AudioLevel.raised([100, -200], from: -20, to: -25) == [100, -200])
        #expect(AudioLevel.raised([100, -200], from: -40, to: nil) == [100, -200])
        #expect(AudioLevel.raised([0, 0], from: -120, to: -25) == [0, 0])
        #expect(AudioLevel.raised([20_000], from: -40, to: -20) == [Int16.max], "clamped, not wrapped")
    }

    @Test("a decoded frame maps back to its frame in the clip, across the cuts")
    func clipFrames() {
        let kept = KeptFrames([41..<234, 566..<759])
        #expect(kept.clipFrame(0) == 41)
        #expect(kept.clipFrame(192) == 233)
        #expect(kept.clipFrame(193) == 566)
        #expect(kept.clipFrame(385) == 758)
        #expect(kept.clipFrame(386) == 759, "past the end it counts on")
    }

    @Test("the signal-to-noise ratio is speech over noise level in dB")
    func signalToNoise() throws {
        let ratio = try #require(AudioLevel.signalToNoiseRatio(AudioLevel.noiseAndSpeechPower(Self.powers(speechAt: Array(0..<30)))))
        #expect(abs(ratio - 40) < 0.01)
        #expect(AudioLevel.signalToNoiseRatio(AudioLevel.noiseAndSpeechPower([1, 2, 3])) == nil)
    }
}

@Suite("DC offset")
struct DCOffsetTests {
    @Test("a constant offset is gone from the first sample; one that changes part-way is gone within 100 ms")
    func removesTheOffset() {
        #expect(DCOffset.removed(from: [Int16](repeating: 1_000, count: 100)).allSatisfy { $0 == 0 })
        let stepped = DCOffset.removed(from: [Int16](repeating: 0, count: 1_600) + [Int16](repeating: -1_000, count: 3_200))
        #expect(stepped[3_200...].allSatisfy { abs(Int($0)) <= 1 })
        #expect(DCOffset.removed(from: []) == [])
    }

    @Test("speech frequencies pass: a 200 Hz tone keeps its amplitude to within 1%")
    func passesSpeech() {
        let tone = (0..<16_000).map { Int16((10_000 * sin(2 * Double.pi * 200 * Double($0) / 16_000)).rounded()) }
        let peak = DCOffset.removed(from: tone)[8_000...].map { abs(Int($0)) }.max() ?? 0
        #expect(abs(peak - 10_000) < 100)
    }
}
