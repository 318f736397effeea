import Testing
@testable import AudioInput

@Suite("Frame sources")
struct AudioFrameSourceTests {
    let info = AudioSourceInfo(container: "raw", codec: "PCM", sampleRate: 16000, channelCount: 1,
                               sampleFormat: "16-bit integer", decoder: "built-in")

    @Test("a clip is served in chunks of at most the requested size, then nil")
    func chunks() throws {
        let samples = (0..<2500).map { Int16($0 % 1000) }
        var source = AudioClipFrameSource(clip: AudioClip(samples: samples, source: info))
        var sizes: [Int] = []
        var joined: [Int16] = []
        while let chunk = source.nextChunk(maxSamples: 1024) {
            sizes.append(chunk.count)
            joined += chunk
        }
        #expect(sizes == [1024, 1024, 452])
        #expect(joined == samples)
        #expect(source.nextChunk(maxSamples: 1024) == nil)
    }

    @Test("an empty clip ends at once")
    func empty() {
        var source = AudioClipFrameSource(clip: AudioClip(samples: [], source: info))
        #expect(source.nextChunk(maxSamples: 160) == nil)
    }

    @Test("works through the protocol with a decoded fixture")
    func throughProtocol() throws {
        let clip = try AudioFileDecoder.decode(path: Fixtures.path("speech.mp3"))
        var source: any AudioFrameSource = AudioClipFrameSource(clip: clip)
        var total = 0
        while let chunk = try source.nextChunk(maxSamples: 320) {
            #expect(!chunk.isEmpty && chunk.count <= 320)
            total += chunk.count
        }
        #expect(total == clip.samples.count)
    }
}
