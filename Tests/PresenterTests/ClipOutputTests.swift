import FlightCore
import Foundation
import Presenter
import Testing

/// Amazon Transcribe's finished-job JSON, field for field as AWS names them (snake_case inside results).
struct TranscribeJob: Decodable {
    let jobName: String
    let accountId: String
    let status: String
    let results: Results

    struct Results: Decodable {
        let transcripts: [Transcript]
        let items: [Item]
    }

    struct Transcript: Decodable {
        let transcript: String
    }

    struct Item: Decodable {
        let startTime: String?
        let endTime: String?
        let alternatives: [Alternative]
        let type: String

        enum CodingKeys: String, CodingKey {
            case startTime = "start_time"
            case endTime = "end_time"
            case alternatives, type
        }
    }

    struct Alternative: Decodable {
        let confidence: String
        let content: String
    }
}

@Suite("Batch recognition output")
struct ClipOutputTests {
    let options = PresentationOptions(now: Fixtures.now)

    @Test("text lines match their golden file")
    func textGolden() throws {
        try Golden.check(Fixtures.allClips.map { ClipReportOutput.textLine($0, options: options) }.joined(separator: "\n"), named: "clips.txt")
    }

    @Test("the found line has the documented shape")
    func foundLine() {
        #expect(ClipReportOutput.textLine(Fixtures.foundClip, options: options)
            == "Samples/lx40.wav  \"l x forty\"  → LX 40 Swiss → New York JFK · Gate E34 · Boarding   (confidence 0.93)")
        #expect(ClipReportOutput.textLine(Fixtures.errorClip, options: options) == "x.wav  error: unsupported format: the file is a PNG image")
    }

    @Test("Transcribe documents match their golden files", arguments: [
        ("transcribe-found.json", Fixtures.foundClip),
        ("transcribe-not-found.json", Fixtures.notFoundClip),
        ("transcribe-no-speech.json", Fixtures.noSpeechClip),
        ("transcribe-failed.json", Fixtures.errorClip),
    ])
    func transcribeGolden(name: String, clip: ClipReport) throws {
        try Golden.check(TranscribeDocument.render(clip, pretty: true), named: name)
    }

    @Test("a real Transcribe output decodes with the model (so the model mirrors AWS)")
    func awsSampleDecodes() throws {
        let sample = """
            {"jobName":"my-first-transcription-job","accountId":"111122223333","results":{"transcripts":[{"transcript":"Welcome to Amazon Transcribe."}],\
            "items":[{"start_time":"0.64","end_time":"1.09","alternatives":[{"confidence":"1.0","content":"Welcome"}],"type":"pronunciation"},\
            {"alternatives":[{"confidence":"0.0","content":"."}],"type":"punctuation"}]},"status":"COMPLETED"}
            """
        let job = try JSONDecoder().decode(TranscribeJob.self, from: Data(sample.utf8))
        #expect(job.results.items.count == 2)
    }

    @Test("our documents decode with the Transcribe model", arguments: Fixtures.allClips)
    func decodesAsTranscribe(clip: ClipReport) throws {
        let text = TranscribeDocument.render(clip, accountID: "123456789012")
        let job = try JSONDecoder().decode(TranscribeJob.self, from: Data(text.utf8))
        #expect(job.accountId == "123456789012")
        #expect(job.results.transcripts.count == 1)
        let object = try parseObject(text)
        if clip.answer.status == .error {
            #expect(job.status == "FAILED")
            #expect(object["failureReason"] as? String == clip.error)
            #expect(Set(object.keys) == DocumentedKeys.transcribe.union(["failureReason"]))
        } else {
            #expect(job.status == "COMPLETED")
            #expect(job.results.transcripts[0].transcript == clip.transcript.text)
            #expect(job.results.items.count == clip.transcript.words.count)
            #expect(Set(object.keys) == DocumentedKeys.transcribe)
        }
        let ours = try #require(object["flightvoice"] as? [String: Any])
        #expect(Set(ours.keys) == DocumentedKeys.transcribeExtension)
    }

    @Test("items carry 3-decimal times and string confidences")
    func itemFormat() throws {
        let job = try JSONDecoder().decode(TranscribeJob.self, from: Data(TranscribeDocument.render(Fixtures.foundClip).utf8))
        #expect(job.jobName == "lx40")
        #expect(job.results.items[0].startTime == "0.120")
        #expect(job.results.items[0].endTime == "0.450")
        #expect(job.results.items[0].alternatives[0].confidence == "0.95")
        #expect(job.results.items[0].alternatives[0].content == "l")
        #expect(job.results.items.allSatisfy { $0.type == "pronunciation" })
    }

    @Test("recognizer markers are not Transcribe items")
    func markersSkipped() throws {
        let transcript = Transcript(text: "l x forty", words: [
            RecognizedWord(word: "<sil>", start: 0, end: 0.12, confidence: 1),
            RecognizedWord(word: "l", start: 0.12, end: 0.45, confidence: 1),
            RecognizedWord(word: "[NOISE]", start: 0.45, end: 0.5, confidence: 1),
        ], confidence: 1, alternatives: [])
        let clip = ClipReport(path: "a.wav", answer: Fixtures.foundAnswer, transcript: transcript, audioDuration: 1, processingSeconds: 0.1, error: nil)
        let job = try JSONDecoder().decode(TranscribeJob.self, from: Data(TranscribeDocument.render(clip).utf8))
        #expect(job.results.items.map(\.alternatives[0].content) == ["l"])
        #expect(job.results.items[0].alternatives[0].confidence == "1.0")
    }

    @Test("job names come from the file name", arguments: [
        ("Samples/lx40.wav", "lx40"), ("lx40", "lx40"), ("/a/b/what time.m4a", "what-time"), ("-", "stdin"),
        ("dir/archive.tar.gz", "archive.tar"), ("Zürich.wav", "Z-rich"), (".hidden", ".hidden"),
    ])
    func jobNames(path: String, expected: String) {
        #expect(TranscribeDocument.jobName(forPath: path) == expected)
    }

    @Test("summary and progress lines match their golden file")
    func summaryGolden() throws {
        let lines = [
            BatchProgress.summaryLine(Fixtures.allClips, elapsedSeconds: 0.4),
            BatchProgress.summaryLine([Fixtures.foundClip], elapsedSeconds: 0.1),
            BatchProgress.summaryLine([], elapsedSeconds: 0),
            BatchProgress.progressLine(done: 0, total: 100, elapsedSeconds: 0),
            BatchProgress.progressLine(done: 42, total: 100, elapsedSeconds: 3.4146),
            BatchProgress.progressLine(done: 100, total: 100, elapsedSeconds: 8.1),
            BatchProgress.progressLine(done: 3, total: 9000, elapsedSeconds: 2, width: 20),
        ]
        try Golden.check(lines.joined(separator: "\n"), named: "summary.txt")
    }

    @Test("progress line shape")
    func progressShape() {
        #expect(BatchProgress.progressLine(done: 42, total: 100, elapsedSeconds: 3.4146) == "[====>     ] 42/100  12.3 clips/s  ETA 0:05")
        #expect(BatchProgress.progressLine(done: 0, total: 10, elapsedSeconds: 1) == "[>         ] 0/10  -- clips/s  ETA --:--")
        #expect(BatchProgress.progressLine(done: 10, total: 10, elapsedSeconds: 1) == "[==========] 10/10  10.0 clips/s  ETA 0:00")
        #expect(BatchProgress.progressLine(done: 5, total: 0, elapsedSeconds: 1).hasPrefix("[>         ] 5/0"))
    }

    @Test("summary counts every status")
    func summaryCounts() {
        #expect(BatchProgress.summaryLine(Fixtures.allClips, elapsedSeconds: 0.4)
            == "6 clips: 2 found, 1 not found, 1 not understood, 1 no speech, 1 error · 10.7 s of audio in 0.4 s · 15.0 clips/s · real-time factor 0.037")
    }
}
