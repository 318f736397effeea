import Testing
@testable import AudioInput

@Suite("Resampler and sample conversion")
struct ResamplerTests {
    @Test("a 1 kHz sine at 44.1 kHz keeps its frequency and length at 16 kHz, whatever the chunk sizes")
    func sineKeepsFrequency() throws {
        let input = Signal.sine(frequency: 1000, rate: 44100, seconds: 2)
        let resampler = try Resampler(inputRate: 44100, outputRate: 16000)
        var output: [Float] = []
        var offset = 0
        for size in [1, 100, 4096, 333, 44100].cycled(until: input.count) {
            let end = min(offset + size, input.count)
            output += resampler.process(Array(input[offset..<end]))
            offset = end
            if offset == input.count { break }
        }
        output += resampler.flush()
        #expect(output.count == 32000)
        // A 1 kHz sine crosses zero 2,000 times a second.
        let crossings = Signal.zeroCrossings(Array(output[1000..<31000]))  // skip the filter's edges
        #expect(abs(crossings - 3750) <= 2, "\(crossings) crossings in 1.875 s")
        // Amplitude is preserved (0.5 peak → RMS 0.354).
        let rms = (output[1000..<31000].reduce(0) { $0 + Double($1 * $1) } / 30000).squareRoot()
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.005)
    }

    @Test("streaming in chunks gives the same samples as one call")
    func chunkingIsTransparent() throws {
        let input = Signal.sine(frequency: 440, rate: 22050, seconds: 1)
        let whole = try Resampler(inputRate: 22050)
        let oneShot = whole.process(input) + whole.flush()
        let chunked = try Resampler(inputRate: 22050)
        var streamed: [Float] = []
        for start in stride(from: 0, to: input.count, by: 512) {
            streamed += chunked.process(Array(input[start..<min(start + 512, input.count)]))
        }
        streamed += chunked.flush()
        #expect(streamed.count == oneShot.count)
        #expect(zip(streamed, oneShot).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    @Test("equal rates pass samples through")
    func identity() throws {
        let resampler = try Resampler(inputRate: 16000)
        #expect(resampler.process([0.25, -0.5]) == [0.25, -0.5])
        #expect(resampler.flush().isEmpty)
    }

    @Test("a 44.1 kHz WAV decodes to a 1 kHz tone at 16 kHz")
    func wavSine() throws {
        let tone = Signal.sine(frequency: 1000, rate: 44100, seconds: 1).map(SampleConversion.int16)
        let clip = try AudioFileDecoder.decode(data: WAVBytes.int16(tone, rate: 44100), name: "tone.wav")
        #expect(clip.samples.count == 16000)
        let crossings = Signal.zeroCrossings(SampleConversion.float(Array(clip.samples[500..<15500])))
        #expect(abs(crossings - 1875) <= 2)
    }

    @Test("float to 16-bit conversion rounds and clips")
    func conversion() {
        #expect(SampleConversion.int16(1.0) == 32767)
        #expect(SampleConversion.int16(-1.0) == -32768)
        #expect(SampleConversion.int16(2.0) == 32767)
        #expect(SampleConversion.int16(-7.5) == -32768)
        #expect(SampleConversion.int16(.nan) == 0)
        #expect(SampleConversion.int16(0.5) == 16384)
        let all: [Int16] = [.min, -1, 0, 1, .max]
        #expect(SampleConversion.int16(SampleConversion.float(all)) == all)
    }
}

extension Array where Element == Int {
    /// Repeats the sizes until their sum reaches `total`.
    func cycled(until total: Int) -> [Int] {
        var result: [Int] = []
        var sum = 0
        while sum < total {
            for size in self where sum < total {
                result.append(size)
                sum += size
            }
        }
        return result
    }
}
