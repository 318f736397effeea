import Foundation
import Testing
@testable import Recognizer

@Suite("Pronunciation dictionary")
struct PronunciationDictionaryTests {
    /// A dictionary file in a fresh temporary folder (a new path, so `shared` reads it anew).
    static func dictionaryFile(_ lines: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-dictionary-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("test.dict").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("decoders load only the words with alternate pronunciations; every word keeps its first pronunciation")
    func slimCopy() throws {
        let path = try Self.dictionaryFile([
            "four F AO R", "lima L IY M AH", "lima(2) L AY M AH", "read R EH D", "read's R IY D Z", "read(2) R IY D",
            "four F AO R W", "x-ray EH K S R EY\t",
        ])
        let dictionary = try PronunciationDictionary.shared(path: path)
        #expect(dictionary.isSlim)
        #expect(dictionary.decoderPath.hasPrefix("/proc/self/fd/"))
        let slim = try String(contentsOfFile: dictionary.decoderPath, encoding: .utf8)
        #expect(slim == "lima L IY M AH\nlima(2) L AY M AH\nread R EH D\nread(2) R IY D\n")
        #expect(dictionary.pronunciation(of: "four") == "F AO R")
        #expect(dictionary.pronunciation(of: "x-ray") == "EH K S R EY")
        #expect(dictionary.pronunciation(of: "read's") == "R IY D Z")
        #expect(dictionary.pronunciation(of: "lima(2)") == nil)
        #expect(dictionary.pronunciation(of: "swiss") == nil)
        #expect(try PronunciationDictionary.shared(path: path) === dictionary)
    }

    @Test("a missing dictionary file is a recognizer error naming it, not a crash")
    func missingFile() {
        let error = #expect(throws: RecognizerError.self) { try PronunciationDictionary.shared(path: "/nonexistent/cmudict.dict") }
        #expect(error?.description.contains("/nonexistent/cmudict.dict") == true)
    }

    @Test("a grammar pass gets each word's pronunciations from the whole dictionary: the first added, the alternates loaded")
    func grammarWordsComeFromTheWholeDictionary() throws {
        let (pass, grammar) = try DecodingPassTests.todaysGrammarPass()
        let file = try String(contentsOfFile: RecognizerConfiguration().dictionary, encoding: .utf8)
        var wholeDictionary: [String: String] = [:]
        for line in file.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, wholeDictionary[String(parts[0])] == nil { wholeDictionary[String(parts[0])] = String(parts[1]) }
        }
        let decoder = pass.utterance.decoder
        let inDictionary = grammar.words.filter { wholeDictionary[$0] != nil }
        #expect(inDictionary.count > 20)
        for word in inDictionary {
            #expect(decoder.pronunciation(of: word) == wholeDictionary[word], "\(word)")
            var alternate = 2
            while let phones = wholeDictionary["\(word)(\(alternate))"] {
                #expect(decoder.pronunciation(of: "\(word)(\(alternate))") == phones, "\(word)(\(alternate))")
                alternate += 1
            }
        }
        #expect(decoder.alternatePronunciations(of: ["zero", "lima"]) == ["zero": ["zero(2)"], "lima": ["lima(2)"]])
    }
}
