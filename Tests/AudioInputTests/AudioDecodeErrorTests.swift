import Foundation
import Testing
@testable import AudioInput

/// A broken fixture, the error reason it must give and a phrase its message must contain.
struct BrokenFixture: CustomTestStringConvertible, Sendable {
    let file: String
    let reason: String
    let phrase: String
    var testDescription: String { file }
}

let brokenFixtures: [BrokenFixture] = [
    BrokenFixture(file: "png-image.wav", reason: "unsupported_format", phrase: "unsupported format: the file is a PNG image"),
    BrokenFixture(file: "empty.wav", reason: "empty_file", phrase: "empty"),
    BrokenFixture(file: "truncated.wav", reason: "truncated", phrase: "truncated"),
    BrokenFixture(file: "random-bytes.wav", reason: "unsupported_format", phrase: "unsupported format: the file is of no format known here"),
    BrokenFixture(file: "rate-4000.wav", reason: "sample_rate_too_low", phrase: "sample rate 4000 Hz is below 8000 Hz"),
]

/// Decodes and returns the typed error, or records a failure if decoding succeeded.
func decodeError(_ body: () throws(AudioDecodeError) -> AudioClip) -> AudioDecodeError? {
    do {
        let clip = try body()
        Issue.record("expected an error, decoded \(clip.duration) s")
        return nil
    } catch {
        return error
    }
}

@Suite("Decode errors")
struct AudioDecodeErrorTests {
    @Test("each broken fixture gives its error, with the path in the message", arguments: brokenFixtures)
    func brokenFixture(_ fixture: BrokenFixture) throws {
        let path = Fixtures.path(fixture.file)
        let error = try #require(decodeError { () throws(AudioDecodeError) in try AudioFileDecoder.decode(path: path) })
        #expect(error.reason == fixture.reason)
        #expect(error.path == path)
        #expect(error.description.contains(path))
        #expect(error.description.contains(fixture.phrase), "\(error.description)")
    }

    @Test("the same errors come from standard input, naming it", arguments: brokenFixtures)
    func brokenFixtureFromMemory(_ fixture: BrokenFixture) throws {
        let error = try #require(decodeError { () throws(AudioDecodeError) in
            try AudioFileDecoder.decode(data: Fixtures.bytes(fixture.file), name: "<stdin>")
        })
        #expect(error.reason == fixture.reason)
        #expect(error.description.hasPrefix("<stdin>: "))
    }

    @Test("a missing file")
    func missingFile() throws {
        let error = try #require(decodeError { () throws(AudioDecodeError) in try AudioFileDecoder.decode(path: "/no/such/clip.wav") })
        #expect(error == .fileNotFound(path: "/no/such/clip.wav"))
        #expect(error.description.contains("/no/such/clip.wav"))
    }

    @Test("a directory is unreadable")
    func directory() throws {
        let error = try #require(decodeError { () throws(AudioDecodeError) in try AudioFileDecoder.decode(path: Fixtures.directory) })
        #expect(error.reason == "unreadable")
        #expect(error.description.contains("directory"))
    }

    @Test("raw PCM with an odd number of bytes")
    func oddRawBytes() throws {
        let error = try #require(decodeError { () throws(AudioDecodeError) in
            try AudioFileDecoder.decode(data: [1, 2, 3], name: "odd.raw", rawSampleRate: 16000)
        })
        #expect(error == .oddByteCount(path: "odd.raw", byteCount: 3))
        #expect(error.description.contains("odd.raw"))
    }

    @Test("raw PCM at a sample rate out of range", arguments: [(4000, "sample_rate_too_low"), (384_000, "sample_rate_too_high")])
    func rawRateOutOfRange(_ rate: Int, _ reason: String) throws {
        let error = try #require(decodeError { () throws(AudioDecodeError) in
            try AudioFileDecoder.decode(data: [0, 0, 0, 0], name: "x.raw", rawSampleRate: rate)
        })
        #expect(error.reason == reason)
        #expect(error.description.contains("sample rate \(rate) Hz"))
    }

    @Test("a WAV with a header but no samples")
    func noSamples() throws {
        let error = try #require(decodeError { () throws(AudioDecodeError) in
            try AudioFileDecoder.decode(data: WAVBytes.int16([], rate: 16000), name: "header-only.wav")
        })
        #expect(error == .noAudio(path: "header-only.wav"))
    }

    @Test("a cut-off compressed file is reported as truncated or corrupt, with the library's words",
          arguments: ["speech-16k.flac", "speech.m4a", "speech.ogg", "speech.opus"])
    func truncatedCompressed(_ file: String) throws {
        let bytes = Fixtures.bytes(file)
        let error = try #require(decodeError { () throws(AudioDecodeError) in
            try AudioFileDecoder.decode(data: Array(bytes.prefix(bytes.count * 6 / 10)), name: "cut-\(file)")
        })
        switch error {
        case .corrupt(let path, let failure):
            #expect(path == "cut-\(file)")
            #expect(!failure.message.isEmpty)
        case .truncated(let path, let detail):
            #expect(path == "cut-\(file)")
            #expect(detail.contains("libsndfile says"))
        default:
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a WAV with a damaged header is corrupt, with libsndfile's message")
    func damagedWAVHeader() throws {
        var bytes = Fixtures.bytes("speech-16k-s16-mono.wav")
        bytes.replaceSubrange(12..<16, with: Array("junk".utf8))  // the fmt chunk is gone
        let error = try #require(decodeError { () throws(AudioDecodeError) in try AudioFileDecoder.decode(data: bytes, name: "bad.wav") })
        #expect(error.reason == "corrupt")
        guard case .corrupt(_, let failure) = error else { return }
        #expect(failure.library == "libsndfile")
        #expect(!failure.message.isEmpty)
    }

    @Test("non-audio content is named by its magic bytes", arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], DetectedContent.png, "a PNG image"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46], .jpeg, "a JPEG image"),
        (Array("GIF89a\u{1}\u{0}".utf8), .gif, "a GIF image"),
        (Array("%PDF-1.7\n%".utf8), .pdf, "a PDF document"),
        ([0x50, 0x4B, 0x03, 0x04, 20, 0, 0, 0], .zip, "a ZIP archive"),
        ([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0], .gzip, "a gzip-compressed file"),
        (Array("Flight LX40 departs at 10:05 from gate A12.\n".utf8), .text, "plain text"),
        (Array("  <!DOCTYPE html>\n<html><head><title>x</title>".utf8), .html, "an HTML page"),
        ([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0], .elfExecutable, "an ELF executable"),
        (Array("MZ\u{90}\u{0}".utf8), .windowsExecutable, "a Windows executable"),
        ([0x00, 0x01, 0x02, 0x03, 0xFE, 0x99, 0x10, 0x00], .unknown, "of no format known here"),
    ] as [([UInt8], DetectedContent, String)])
    func magicBytes(_ bytes: [UInt8], _ kind: DetectedContent, _ phrase: String) throws {
        #expect(DetectedContent.detect(bytes) == kind)
        let error = try #require(decodeError { () throws(AudioDecodeError) in try AudioFileDecoder.decode(data: bytes, name: "clip.wav") })
        #expect(error == .unsupportedFormat(path: "clip.wav", detected: kind))
        #expect(error.description.hasPrefix("clip.wav: unsupported format: the file is \(phrase)"))
    }

    @Test("audio containers are recognised by their magic bytes", arguments: [
        ("speech-16k-s16-mono.wav", DetectedContent.wav), ("speech-16k.flac", .flac), ("speech.ogg", .ogg),
        ("speech.opus", .ogg), ("speech.mp3", .mp3), ("speech.m4a", .mp4),
    ])
    func audioMagic(_ file: String, _ kind: DetectedContent) {
        #expect(DetectedContent.detect(Fixtures.bytes(file)) == kind)
    }

    @Test("every reason is a distinct snake_case name")
    func reasonsAreDistinct() {
        let failure = AudioLibraryFailure(library: "x", operation: "y", code: 1, message: "z")
        let errors: [AudioDecodeError] = [
            .fileNotFound(path: "p"), .unreadable(path: "p", message: "m"), .emptyFile(path: "p"),
            .truncated(path: "p", detail: "d"), .corrupt(path: "p", failure: failure),
            .unsupportedFormat(path: "p", detected: .png), .unsupportedCodec(path: "p", container: "c", codec: "k", failure: nil),
            .sampleRateTooLow(path: "p", sampleRate: 1), .sampleRateTooHigh(path: "p", sampleRate: 1), .noAudio(path: "p"),
            .oddByteCount(path: "p", byteCount: 1), .resamplingFailed(path: "p", failure: failure),
        ]
        #expect(Set(errors.map(\.reason)).count == errors.count)
        #expect(errors.allSatisfy { $0.reason.allSatisfy { $0.isLowercase || $0 == "_" } })
        #expect(errors.allSatisfy { $0.description.hasPrefix("p: ") })
    }
}
