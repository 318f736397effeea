import Foundation
import Testing
@testable import AudioInput

/// One speech fixture and what its decoded source description must say.
struct SpeechFixture: CustomTestStringConvertible, Sendable {
    let file: String
    let container: String
    let codec: String
    let sampleRate: Int
    let channelCount: Int
    var rawSampleRate: Int? = nil

    var testDescription: String { file }
}

/// The same utterance ("L X forty", espeak-ng en-us) in every supported format.
let speechFixtures: [SpeechFixture] = [
    SpeechFixture(file: "speech-16k-s16-mono.wav", container: "WAV", codec: "PCM", sampleRate: 16000, channelCount: 1),
    SpeechFixture(file: "speech-44k1-s16-stereo.wav", container: "WAV", codec: "PCM", sampleRate: 44100, channelCount: 2),
    SpeechFixture(file: "speech-8k-s16.wav", container: "WAV", codec: "PCM", sampleRate: 8000, channelCount: 1),
    SpeechFixture(file: "speech-8k-ulaw.wav", container: "WAV", codec: "µ-law", sampleRate: 8000, channelCount: 1),
    SpeechFixture(file: "speech-48k-s24.wav", container: "WAV", codec: "PCM", sampleRate: 48000, channelCount: 1),
    SpeechFixture(file: "speech-22k-f32.wav", container: "WAV", codec: "PCM", sampleRate: 22050, channelCount: 1),
    SpeechFixture(file: "speech-11k-u8.wav", container: "WAV", codec: "PCM", sampleRate: 11025, channelCount: 1),
    SpeechFixture(file: "speech-16k.flac", container: "FLAC", codec: "FLAC", sampleRate: 16000, channelCount: 1),
    SpeechFixture(file: "speech.ogg", container: "Ogg", codec: "Vorbis", sampleRate: 22050, channelCount: 1),
    SpeechFixture(file: "speech.opus", container: "Ogg", codec: "Opus", sampleRate: 48000, channelCount: 1),
    SpeechFixture(file: "speech.mp3", container: "MP3", codec: "MPEG Layer III", sampleRate: 22050, channelCount: 1),
    SpeechFixture(file: "speech.m4a", container: "MP4", codec: "AAC", sampleRate: 22050, channelCount: 1),
    SpeechFixture(file: "speech-16k-s16le.raw", container: "raw", codec: "PCM", sampleRate: 16000, channelCount: 1,
                  rawSampleRate: 16000),
]

/// Duration tolerance in seconds for every format.
let durationTolerance = 0.030
/// Speech must be louder than this RMS (fraction of full scale); the fixture's is about 0.09.
let speechRMSFloor = 0.02

@Suite("Decoding every supported format")
struct AudioFileDecoderTests {
    @Test("decodes to 16 kHz mono with the expected duration, energy and source description", arguments: speechFixtures)
    func decodesFormat(_ fixture: SpeechFixture) throws {
        let clip = try AudioFileDecoder.decode(path: Fixtures.path(fixture.file), rawSampleRate: fixture.rawSampleRate)
        let expected = try #require(Fixtures.expectedDurations[fixture.file])
        #expect(abs(clip.duration - expected) <= durationTolerance, "decoded \(clip.duration) s, expected \(expected) s")
        #expect(Signal.rms(clip.samples) > speechRMSFloor)
        #expect(clip.source.container == fixture.container)
        #expect(clip.source.codec == fixture.codec)
        #expect(clip.source.sampleRate == fixture.sampleRate)
        #expect(clip.source.channelCount == fixture.channelCount)
    }

    @Test("the same utterance has a similar loudness envelope in every format", arguments: speechFixtures.dropFirst())
    func envelopeMatchesReference(_ fixture: SpeechFixture) throws {
        let reference = try AudioFileDecoder.decode(path: Fixtures.path("speech-16k-s16-mono.wav"))
        let clip = try AudioFileDecoder.decode(path: Fixtures.path(fixture.file), rawSampleRate: fixture.rawSampleRate)
        let correlation = Signal.bestCorrelation(Signal.envelope(reference.samples), Signal.envelope(clip.samples))
        #expect(correlation > 0.9, "envelope correlation \(correlation)")
    }

    @Test("16 kHz 16-bit WAV and raw PCM pass through bit for bit")
    func sixteenKilohertzIsExact() throws {
        let wav = try AudioFileDecoder.decode(path: Fixtures.path("speech-16k-s16-mono.wav"))
        let raw = try AudioFileDecoder.decode(path: Fixtures.path("speech-16k-s16le.raw"), rawSampleRate: 16000)
        #expect(wav.samples == raw.samples)
        #expect(wav.source.sampleFormat == "16-bit integer")
    }

    @Test("a silent WAV decodes to silence of the right length")
    func silence() throws {
        let clip = try AudioFileDecoder.decode(path: Fixtures.path("silent-16k.wav"))
        #expect(abs(clip.duration - 1.0) <= durationTolerance)
        #expect(clip.samples.allSatisfy { $0 == 0 })
    }

    @Test("standard input bytes decode exactly like the file", arguments: ["speech-44k1-s16-stereo.wav", "speech-16k.flac", "speech.mp3", "speech.opus", "speech.m4a"])
    func memoryMatchesFile(_ file: String) throws {
        let fromFile = try AudioFileDecoder.decode(path: Fixtures.path(file))
        let fromMemory = try AudioFileDecoder.decode(data: Fixtures.bytes(file), name: "-")
        #expect(fromMemory == fromFile)
    }

    @Test("Data overload decodes standard input")
    func dataOverload() throws {
        let data = Data(Fixtures.bytes("speech-16k-s16le.raw"))
        let clip = try AudioFileDecoder.decode(data: data, name: "-", rawSampleRate: 16000)
        #expect(clip.samples.count == data.count / 2)
    }

    @Test("stereo is downmixed by averaging the channels")
    func downmixAverages() throws {
        let left = Signal.sine(frequency: 500, rate: 16000, seconds: 0.5, amplitude: 0.5).map(SampleConversion.int16)
        var opposite: [Int16] = []
        var oneSided: [Int16] = []
        for sample in left {
            opposite += [sample, sample == .min ? .max : -sample]
            oneSided += [sample, 0]
        }
        let cancelled = try AudioFileDecoder.decode(data: WAVBytes.int16(opposite, rate: 16000, channels: 2), name: "opposite")
        #expect(cancelled.samples.allSatisfy { abs(Int($0)) <= 1 })
        let halved = try AudioFileDecoder.decode(data: WAVBytes.int16(oneSided, rate: 16000, channels: 2), name: "one-sided")
        #expect(halved.source.channelCount == 2)
        #expect(abs(Signal.rms(halved.samples) - Signal.rms(left) / 2) < 0.001)
    }

    @Test("float samples beyond full scale are clipped to 16 bits")
    func floatClipping() throws {
        let bytes = WAVBytes.float32([1.5, -1.5, 0.5, -0.25, 1.0], rate: 16000)
        let clip = try AudioFileDecoder.decode(data: bytes, name: "loud.wav")
        #expect(clip.samples == [32767, -32768, 16384, -8192, 32767])
        #expect(clip.source.sampleFormat == "32-bit float")
    }

    @Test("a WAV streamed to a pipe (unknown data length) is not mistaken for a truncated one")
    func streamedWAV() throws {
        let samples = Signal.sine(frequency: 300, rate: 16000, seconds: 0.25).map(SampleConversion.int16)
        let bytes = WAVBytes.int16(samples, rate: 16000, dataSizeOverride: 0xFFFF_FFFF)
        let clip = try AudioFileDecoder.decode(data: bytes, name: "-")
        #expect(clip.samples == samples)
    }

    @Test("a three-minute clip decodes from memory and from a file")
    func threeMinuteClip() throws {
        let rate = 44100
        let seconds = 180.0
        // A 440 Hz tone whose loudness rises and falls every second, so nothing is silent; one second, repeated.
        let second = (0..<rate).map { index -> Int16 in
            let time = Double(index) / Double(rate)
            let level = 0.3 + 0.2 * sin(2 * Double.pi * time)
            return Int16(level * 32767 * sin(2 * Double.pi * 440 * time))
        }
        let samples = Array(repeating: second, count: Int(seconds)).flatMap { $0 }
        let bytes = WAVBytes.int16(samples, rate: rate)
        let fromMemory = try AudioFileDecoder.decode(data: bytes, name: "three-minutes.wav")
        #expect(abs(fromMemory.duration - seconds) <= durationTolerance)
        #expect(Signal.rms(fromMemory.samples) > 0.1)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("three-minutes-\(UUID().uuidString).wav")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = try AudioFileDecoder.decode(path: url.path)
        #expect(fromFile.samples.count == fromMemory.samples.count)
        #expect(fromFile.samples == fromMemory.samples)
    }
}
