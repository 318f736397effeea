import Foundation
@testable import Recognizer
import Testing

@Suite("A recorded clip fed as the kiosk would hear it")
struct LiveClipFeedTests {
    static let rate = 16_000

    /// `seconds` of a 440 Hz tone at `level` dBFS (RMS), standing in for speech.
    static func tone(_ seconds: Double, level: Double) -> [Int16] {
        let amplitude = pow(10, level / 20) * 32768 * 2.0.squareRoot()
        return (0..<Int(seconds * Double(rate))).map { Int16(amplitude * sin(2 * .pi * 440 * Double($0) / Double(rate))) }
    }

    /// `seconds` of white noise at about `level` dBFS (RMS), the same every run.
    static func noise(_ seconds: Double, level: Double, seed: UInt64 = 7) -> [Int16] {
        var state = seed
        let amplitude = pow(10, level / 20) * 32768 * 3.0.squareRoot()
        return (0..<Int(seconds * Double(rate))).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(amplitude * (Double(state >> 11) / Double(1 << 53) * 2 - 1))
        }
    }

    static func level(_ samples: ArraySlice<Int16>) -> Double { Endpointer.level(of: samples) }

    @Test("a clip with quiet edges is preceded by a second of its own quiet")
    func quietEdges() {
        let clip = [Int16](repeating: 0, count: 4_800) + Self.tone(1.0, level: -15) + [Int16](repeating: 0, count: 4_800)
        let feed = LiveClipFeed(clip: clip, sampleRate: Self.rate)
        #expect(feed.clipStart == Self.rate)
        #expect(feed.samples[..<feed.clipStart].allSatisfy { $0 == 0 })
        #expect(abs(feed.soundEnd - (feed.clipStart + 4_800 + Self.rate)) <= 160)
    }

    @Test("a clip in steady noise close to its speech is preceded by that noise, and its sound ends with the speech")
    func noisyEdges() {
        let tone = Self.tone(1.0, level: -15)
        var clip = Self.noise(1.6, level: -28)
        for index in tone.indices { clip[4_800 + index] = Int16(clamping: Int(clip[4_800 + index]) + Int(tone[index])) }
        let feed = LiveClipFeed(clip: clip, sampleRate: Self.rate)
        #expect(feed.clipStart == Self.rate)
        let background = Self.level(feed.samples[..<feed.clipStart])
        #expect(abs(background - (-28)) < 2, "the lead is the clip's noise, at \(background) dBFS")
        #expect(abs(feed.soundEnd - (feed.clipStart + 4_800 + tone.count)) <= 320)
        #expect(feed.samples.count == feed.clipStart + clip.count + Int(LiveClipFeed.trailingBackgroundSeconds * Double(Self.rate)))
    }

    @Test("a noisy clip whose words fill it end to end is preceded by its noise between the words")
    func quietBetweenWords() {
        let words = (0..<4).flatMap { _ in Self.tone(0.3, level: -15) + [Int16](repeating: 0, count: 1_600) } + Self.tone(0.3, level: -15)
        var clip = Self.noise(Double(words.count) / Double(Self.rate), level: -28)
        for index in words.indices { clip[index] = Int16(clamping: Int(clip[index]) + Int(words[index])) }
        let feed = LiveClipFeed(clip: clip, sampleRate: Self.rate)
        #expect(feed.clipStart == Self.rate)
        let background = Self.level(feed.samples[..<feed.clipStart])
        #expect(abs(background - (-28)) < 2, "the lead is the clip's noise, at \(background) dBFS")
        #expect(feed.samples.count == feed.clipStart + clip.count + Int(LiveClipFeed.trailingBackgroundSeconds * Double(Self.rate)))
    }

    @Test("a word fading into the quiet after it is not repeated as the room")
    func fadingWordEnd() {
        let clip = Self.tone(1.0, level: -12) + Self.tone(0.08, level: -45) + Self.noise(0.25, level: -78)
        let feed = LiveClipFeed(clip: clip, sampleRate: Self.rate)
        #expect(feed.clipStart == Self.rate)
        let room = feed.samples[..<feed.clipStart] + feed.samples[(feed.clipStart + clip.count)...]
        let loudest = stride(from: room.startIndex, to: room.endIndex - 160, by: 160).map { Self.level(room[$0..<($0 + 160)]) }.max() ?? 0
        #expect(loudest < -70, "the room before and after the clip holds a frame at \(loudest) dBFS")
    }

    @Test("a clip that is sound from end to end is fed as it is")
    func noEdges() {
        let clip = Self.tone(1.0, level: -15)
        let feed = LiveClipFeed(clip: clip, sampleRate: Self.rate)
        #expect(feed.clipStart == 0)
        #expect(feed.samples == clip)
    }
}
