import Foundation
import Testing
@testable import AudioInput

@Suite("Encoding WAV")
struct WAVEncoderTests {
    @Test("decoding an encoded clip gives back the same samples at the same rate")
    func roundTrip() throws {
        let samples: [Int16] = (0..<1600).map { Int16(truncatingIfNeeded: ($0 * 37) % 65536 - 32768) } + [.min, .max, 0, -1]
        let clip = try AudioFileDecoder.decode(data: WAVEncoder.data(samples: samples, sampleRate: 16000), name: "clip.wav")
        #expect(clip.samples == samples)
        #expect(clip.duration == Double(samples.count) / 16000)
    }

    @Test("the header is the canonical 44 bytes")
    func header() {
        let data = WAVEncoder.data(samples: [1, 2, 3], sampleRate: 16000)
        #expect(data.count == 44 + 6)
        #expect(String(decoding: data.prefix(4), as: UTF8.self) == "RIFF")
        #expect(String(decoding: data[36..<40], as: UTF8.self) == "data")
    }
}
