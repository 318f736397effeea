import Foundation
import Testing
@testable import NeuralFlightScoring

/// One case of `Golden/tokenizer-golden.json`: a text and the ids Hugging Face's `tokenizers` gave it
/// (`Golden/make-tokenizer-golden.py`).
struct TokenizerGoldenCase: Decodable, Sendable, CustomTestStringConvertible {
    let text: String
    let ids: [Int]
    var testDescription: String { text.debugDescription }

    static let all: [TokenizerGoldenCase] = {
        struct File: Decodable { let cases: [TokenizerGoldenCase] }
        guard let url = Bundle.module.url(forResource: "Golden/tokenizer-golden", withExtension: "json"),
              let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.cases
    }()
}

@Suite("Whisper tokenizer")
struct WhisperTokenizerTests {
    let tokenizer = SourceTree.tokenizer

    @Test("the golden table is there and covers the forms")
    func goldenTable() {
        #expect(TokenizerGoldenCase.all.count >= 80)
    }

    @Test("encodes as Hugging Face's tokenizers does", arguments: TokenizerGoldenCase.all)
    func encodesAsReference(_ golden: TokenizerGoldenCase) {
        #expect(tokenizer.encode(golden.text) == golden.ids)
    }

    @Test("decodes back to the text", arguments: TokenizerGoldenCase.all)
    func decodesBack(_ golden: TokenizerGoldenCase) {
        #expect(tokenizer.decode(golden.ids) == golden.text)
    }

    @Test("the TECH-NOTES tokenisations")
    func techNotesTokens() {
        #expect(tokenizer.encode(" LX 40.").map { tokenizer.token($0)! } == ["ĠLX", "Ġ40", "."])
        #expect(tokenizer.encode(" Lima X-ray 40.").map { tokenizer.token($0)! } == ["ĠLima", "ĠX", "-", "ray", "Ġ40", "."])
        #expect(tokenizer.encode(" EY 536.").map { tokenizer.token($0)! } == ["ĠE", "Y", "Ġ5", "36", "."])
        // The neural pass's prompt, as WhisperReferenceTests scores after it.
        #expect(tokenizer.encode(" Flight number, spelled letter by letter and digit by digit.")
            == [13365, 1271, 11, 32213, 3850, 416, 3850, 290, 16839, 416, 16839, 13])
        #expect(tokenizer.id(ofToken: "<|startofprev|>") == 50360)
    }

    @Test("special tokens: their ids, skipped when decoding")
    func specialTokens() {
        #expect(tokenizer.endOfText == 50256)
        #expect(tokenizer.startOfTranscript == 50257)
        #expect(tokenizer.noTimestamps == 50362)
        #expect(tokenizer.startSequence == [50257, 50362])
        #expect(tokenizer.vocabularySize == 50363)
        #expect(tokenizer.isSpecial(50256) && !tokenizer.isSpecial(13))
        #expect(tokenizer.decode(tokenizer.startSequence + tokenizer.encode(" LX 40.") + [tokenizer.endOfText]) == " LX 40.")
        #expect(tokenizer.decode([999_999]) == "")
    }

    @Test("pre-tokenisation pieces", arguments: [
        (" LX 40.", [" LX", " 40", "."]),
        ("What's up", ["What", "'s", " up"]),
        ("a  b", ["a", " ", " b"]),
        ("a \n", ["a", " \n"]),
        ("x   ", ["x", "   "]),
        ("'tis", ["'t", "is"]),
        ("L.A.H.", ["L", ".", "A", ".", "H", "."]),
        ("40s!?", ["40", "s", "!?"]),
        ("Zürich 2", ["Zürich", " 2"]),
    ])
    func pieces(text: String, expected: [String]) {
        #expect(ByteLevelPreTokenizer.pieces(of: text) == expected)
    }

    @Test("a missing file is unreadable, with its path")
    func missingFile() {
        #expect(throws: WhisperTokenizerError.self) { try WhisperTokenizer(contentsOf: "/nonexistent/tokenizer.json") }
        do {
            _ = try WhisperTokenizer(contentsOf: "/nonexistent/tokenizer.json")
        } catch let error as WhisperTokenizerError {
            guard case .unreadable(let path, _) = error else { Issue.record("expected unreadable, got \(error)"); return }
            #expect(path == "/nonexistent/tokenizer.json")
            #expect(error.description.contains("make neural-model"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("corrupt files are malformed, saying what is wrong", arguments: [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (#"{"model": {"type": "WordPiece"}}"#, "not BPE"),
        (#"{"model": {"type": "BPE", "vocab": {"a": 0}}}"#, "model.merges"),
        (#"{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": ["a b"]}}"#, "does not make a token"),
        (#"{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [["a", "b"]]}}"#, "byte 0 has no token"),
    ])
    func corrupt(json: String, reason: String) {
        do {
            _ = try WhisperTokenizer(json: Data(json.utf8), path: "bad.json")
            Issue.record("a corrupt file loaded")
        } catch let error as WhisperTokenizerError {
            guard case .malformed(let path, let message) = error else { Issue.record("expected malformed, got \(error)"); return }
            #expect(path == "bad.json")
            #expect(message.contains(reason), "\(message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a file without the special tokens is malformed")
    func missingSpecialTokens() throws {
        var vocabulary: [String: Int] = [:]
        for byte in UInt8.min...UInt8.max { vocabulary[String(ByteLevelAlphabet.character(of: byte))] = Int(byte) }
        let json = try JSONSerialization.data(withJSONObject: ["model": ["type": "BPE", "vocab": vocabulary, "merges": [String]()]])
        #expect(throws: WhisperTokenizerError.malformed(path: "tokenizer.json", reason: "no special token <|endoftext|>")) {
            try WhisperTokenizer(json: json)
        }
    }
}
