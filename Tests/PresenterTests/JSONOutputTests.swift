import FlightCore
import Foundation
import Presenter
import Testing

/// The keys docs/json-output.md promises, per object.
enum DocumentedKeys {
    static let answer: Set = ["status", "query", "flight", "candidates", "result", "suggestions", "message"]
    static let candidate: Set = ["flight", "score", "readings"]
    static let reading: Set = ["token", "read_as", "role"]
    static let flightInfo: Set = ["flight", "requested", "codeshare", "airline", "direction", "airport", "scheduled", "estimated",
                                  "terminal", "gate", "previous_gate", "belt", "status", "codeshares"]
    static let airline: Set = ["iata", "icao", "name"]
    static let airport: Set = ["iata", "city"]
    static let clip: Set = ["path", "status", "transcript", "flight", "confidence", "alternatives", "words", "flight_info",
                            "suggestions", "message", "error", "duration", "processing_seconds"]
    static let word: Set = ["word", "start", "end", "confidence"]
    static let transcribe: Set = ["jobName", "accountId", "status", "results", "flightvoice"]
    static let transcribeExtension: Set = ["status", "flight", "flight_info", "suggestions", "confidence", "message"]

    static var all: Set<String> {
        answer.union(candidate).union(reading).union(flightInfo).union(airline).union(airport).union(clip).union(word)
            .union(transcribe).union(transcribeExtension).union(["failureReason", "transcripts", "transcript", "items", "start_time",
                                                                 "end_time", "alternatives", "content", "type"])
    }
}

/// Parses a JSON object or fails the test.
func parseObject(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any])
}

@Suite("Answer JSON and JSON lines")
struct JSONOutputTests {
    @Test("answers match their golden files", arguments: [
        ("answer-found.json", Fixtures.foundAnswer),
        ("answer-not-found.json", Fixtures.notFoundAnswer),
        ("answer-not-understood.json", Fixtures.notUnderstoodAnswer),
    ])
    func golden(name: String, answer: QueryAnswer) throws {
        try Golden.check(AnswerJSON.render(answer, pretty: true), named: name)
    }

    @Test("the found answer parses back with every documented key and value")
    func foundParsesBack() throws {
        let object = try parseObject(AnswerJSON.render(Fixtures.foundAnswer))
        #expect(Set(object.keys) == DocumentedKeys.answer)
        #expect(object["status"] as? String == "found")
        #expect(object["query"] as? String == "l x forty")
        #expect(object["flight"] as? String == "LX40")
        #expect(object["message"] is NSNull)
        let candidates = try #require(object["candidates"] as? [[String: Any]])
        #expect(candidates.count == 2)
        #expect(Set(candidates[0].keys) == DocumentedKeys.candidate)
        #expect((candidates[0]["score"] as? NSNumber)?.doubleValue == 1)
        let readings = try #require(candidates[0]["readings"] as? [[String: Any]])
        #expect(Set(readings[0].keys) == DocumentedKeys.reading)
        #expect(readings[0]["role"] as? String == "airline_letter")
        let result = try #require(object["result"] as? [String: Any])
        #expect(Set(result.keys) == DocumentedKeys.flightInfo)
        #expect(result["scheduled"] as? String == "2026-11-30T13:05:00+01:00")
        #expect(result["estimated"] as? String == "2026-11-30T13:05:00+01:00")
        #expect(result["previous_gate"] is NSNull)
        #expect(result["belt"] is NSNull)
        #expect(result["codeshare"] as? Bool == false)
        #expect(result["status"] as? String == "boarding")
        #expect(Set(try #require(result["airline"] as? [String: Any]).keys) == DocumentedKeys.airline)
        #expect(Set(try #require(result["airport"] as? [String: Any]).keys) == DocumentedKeys.airport)
    }

    @Test("every answer status keeps all keys, with nulls where absent", arguments: [
        Fixtures.foundAnswer, Fixtures.notFoundAnswer, Fixtures.notUnderstoodAnswer, Fixtures.noSpeechAnswer, Fixtures.errorAnswer,
    ])
    func keysAlwaysPresent(answer: QueryAnswer) throws {
        let object = try parseObject(AnswerJSON.render(answer))
        #expect(Set(object.keys) == DocumentedKeys.answer)
        for suggestion in try #require(object["suggestions"] as? [[String: Any]]) {
            #expect(Set(suggestion.keys) == DocumentedKeys.flightInfo)
        }
    }

    @Test("output is one line with sorted keys and unescaped slashes")
    func compactAndStable() throws {
        let text = AnswerJSON.render(Fixtures.notUnderstoodAnswer)
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix("{\"candidates\":[],\"flight\":null,\"message\":"))
        let slashed = QueryAnswer(status: .error, heard: "a/b", flightNumber: nil, candidates: [], lookup: nil, suggestions: [], message: "x/y")
        #expect(AnswerJSON.render(slashed).contains("\"a/b\""))
        #expect(AnswerJSON.render(Fixtures.foundAnswer) == AnswerJSON.render(Fixtures.foundAnswer))
    }

    @Test("summer times carry the +02:00 offset")
    func summerOffset() throws {
        let summer = Fixtures.lookup(Fixtures.departure(scheduled: Fixtures.zurich(2026, 7, 1, 13, 5), estimated: nil))
        let object = try parseObject(AnswerJSON.flightObject(summer).serialized())
        #expect(object["scheduled"] as? String == "2026-07-01T13:05:00+02:00")
        #expect(object["estimated"] is NSNull)
    }

    @Test("JSON lines match their golden file")
    func jsonLinesGolden() throws {
        try Golden.check(Fixtures.allClips.map(ClipReportOutput.jsonLine).joined(separator: "\n"), named: "clips.jsonl")
    }

    @Test("each JSON line is one object with every documented key", arguments: Fixtures.allClips)
    func jsonLineKeys(clip: ClipReport) throws {
        let line = ClipReportOutput.jsonLine(clip)
        #expect(!line.contains("\n"))
        let object = try parseObject(line)
        #expect(Set(object.keys) == DocumentedKeys.clip)
        #expect(object["status"] as? String == clip.answer.status.rawValue)
        for word in try #require(object["words"] as? [[String: Any]]) { #expect(Set(word.keys) == DocumentedKeys.word) }
        if let info = object["flight_info"] as? [String: Any] { #expect(Set(info.keys) == DocumentedKeys.flightInfo) } else { #expect(object["flight_info"] is NSNull) }
        #expect(object["alternatives"] is [String])
        if clip.answer.status == .error { #expect(object["error"] as? String == clip.error) } else { #expect(object["error"] is NSNull) }
    }

    @Test("docs/json-output.md describes every key we write")
    func documentation() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/json-output.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for key in DocumentedKeys.all.sorted() {
            #expect(text.contains("`\(key)`"), "docs/json-output.md does not mention `\(key)`")
        }
    }
}
