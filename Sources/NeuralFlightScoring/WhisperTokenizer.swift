import Foundation

/// Why a Whisper tokenizer could not be loaded.
public enum WhisperTokenizerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read (missing, unreadable); `reason` is the system's message.
    case unreadable(path: String, reason: String)
    /// The file is not a byte-level BPE tokenizer in the layout of Hugging Face's `tokenizer.json`.
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the Whisper tokenizer \(path): \(reason) (run `make neural-model` to fetch it)"
        case .malformed(let path, let reason):
            "\(path) is not a usable Whisper tokenizer: \(reason) (delete models/whisper-tiny.en and run `make neural-model`)"
        }
    }
}

/// Whisper's tokenizer: GPT-2's byte-level byte-pair encoding, read from a Hugging Face `tokenizer.json` (vocabulary,
/// merges and the special tokens), in pure Swift.
///
/// `encode` gives the ids of a text without special tokens (what `tokenizers`' `encode(text,
/// add_special_tokens=False)` gives; text that looks like a special token is encoded as plain text); `decode` gives
/// the text back, skipping special tokens. Immutable and `Sendable`: load once and share.
public struct WhisperTokenizer: Sendable {
    /// Id of `<|endoftext|>`: ends a transcript (append it to score a whole candidate).
    public let endOfText: Int
    /// Id of `<|startoftranscript|>`.
    public let startOfTranscript: Int
    /// Id of `<|notimestamps|>`.
    public let noTimestamps: Int
    /// The decoder's start sequence for an English-only model such as tiny.en: start of transcript, no timestamps.
    public var startSequence: [Int] { [startOfTranscript, noTimestamps] }
    /// The number of ids, special tokens included (the decoder's output width may be larger).
    public let vocabularySize: Int

    /// Token text (in the byte-level alphabet, "ĠLX") by id.
    private let tokensByID: [Int: String]
    /// Id by token text.
    private let idsByToken: [String: Int]
    /// Merge rank by the pair it merges: lower merges first.
    private let mergeRanks: [MergePair: Int]
    /// Ids of the special tokens (`<|endoftext|>`, `<|notimestamps|>`, …), skipped by `decode`.
    private let specialIDs: Set<Int>

    private struct MergePair: Hashable, Sendable {
        let left: String
        let right: String
    }

    /// Loads `tokenizer.json` at `path`; throws `WhisperTokenizerError` when it is missing or not a byte-level BPE tokenizer.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw WhisperTokenizerError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        try self.init(json: data, path: path)
    }

    /// Reads a tokenizer from the bytes of a `tokenizer.json`; `path` only names it in errors.
    public init(json data: Data, path: String = "tokenizer.json") throws {
        func malformed(_ reason: String) -> WhisperTokenizerError { .malformed(path: path, reason: reason) }
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw malformed("not a JSON object") }
            root = object
        } catch let error as WhisperTokenizerError {
            throw error
        } catch {
            throw malformed("not JSON (\((error as NSError).localizedDescription))")
        }
        guard let model = root["model"] as? [String: Any] else { throw malformed("no \"model\"") }
        guard (model["type"] as? String) == "BPE" else { throw malformed("the model is \(model["type"] ?? "missing"), not BPE") }
        guard let vocabulary = model["vocab"] as? [String: Int], !vocabulary.isEmpty else { throw malformed("no \"model.vocab\"") }
        guard let mergeList = model["merges"] as? [Any] else { throw malformed("no \"model.merges\"") }

        var idsByToken = vocabulary
        var specialIDs = Set<Int>()
        for case let added as [String: Any] in root["added_tokens"] as? [Any] ?? [] {
            guard let id = added["id"] as? Int, let content = added["content"] as? String else { throw malformed("an added token without id or content") }
            idsByToken[content] = id
            if added["special"] as? Bool ?? false { specialIDs.insert(id) }
        }
        var tokensByID: [Int: String] = [:]
        for (token, id) in idsByToken { tokensByID[id] = token }

        // Merges are "a b" (older files) or ["a", "b"] (newer); each merged pair must be a token, or encoding could fail.
        var mergeRanks: [MergePair: Int] = [:]
        mergeRanks.reserveCapacity(mergeList.count)
        for (rank, entry) in mergeList.enumerated() {
            let parts: [String]
            if let text = entry as? String {
                parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            } else if let pair = entry as? [String] {
                parts = pair
            } else {
                throw malformed("merge \(rank) is neither \"a b\" nor [a, b]")
            }
            guard parts.count == 2, idsByToken[parts[0] + parts[1]] != nil else { throw malformed("merge \(rank) (\(entry)) does not make a token of the vocabulary") }
            let pair = MergePair(left: parts[0], right: parts[1])
            if mergeRanks[pair] == nil { mergeRanks[pair] = rank }
        }
        // Every byte must be a token by itself, so that any text can be encoded.
        for byte in UInt8.min...UInt8.max where idsByToken[String(ByteLevelAlphabet.character(of: byte))] == nil {
            throw malformed("byte \(byte) has no token")
        }
        func special(_ name: String) throws -> Int {
            guard let id = idsByToken[name] else { throw malformed("no special token \(name)") }
            return id
        }
        endOfText = try special("<|endoftext|>")
        startOfTranscript = try special("<|startoftranscript|>")
        noTimestamps = try special("<|notimestamps|>")
        vocabularySize = (tokensByID.keys.max() ?? -1) + 1
        self.tokensByID = tokensByID
        self.idsByToken = idsByToken
        self.mergeRanks = mergeRanks
        self.specialIDs = specialIDs.union([endOfText, startOfTranscript, noTimestamps])
    }

    /// The ids of `text`, without special tokens: pre-tokenised as GPT-2 does, each piece's UTF-8 bytes mapped to the
    /// byte-level alphabet and merged by rank.
    public func encode(_ text: String) -> [Int] {
        ByteLevelPreTokenizer.pieces(of: text).flatMap { piece in
            // Every symbol is a byte's character or a merge result, both checked against the vocabulary in `init`.
            bytePairs(of: piece.utf8.map { String(ByteLevelAlphabet.character(of: $0)) }).map { idsByToken[$0]! }
        }
    }

    /// The text of `ids`, skipping special tokens and ids the vocabulary does not have; invalid UTF-8 becomes U+FFFD.
    public func decode(_ ids: [Int]) -> String {
        var bytes: [UInt8] = []
        for id in ids where !specialIDs.contains(id) {
            guard let token = tokensByID[id] else { continue }
            for character in token.unicodeScalars {
                if let byte = ByteLevelAlphabet.byte(of: character) { bytes.append(byte) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The token text of `id` in the byte-level alphabet ("ĠLX"), or nil.
    public func token(_ id: Int) -> String? { tokensByID[id] }

    /// The id of a token written in the byte-level alphabet ("ĠLX", "<|endoftext|>"), or nil.
    public func id(ofToken token: String) -> Int? { idsByToken[token] }

    /// True for a special token (`<|endoftext|>`, `<|notimestamps|>`, …).
    public func isSpecial(_ id: Int) -> Bool { specialIDs.contains(id) }

    /// Merges the symbols of one piece, lowest-ranked adjacent pair first, until no pair has a merge.
    private func bytePairs(of symbols: [String]) -> [String] {
        var symbols = symbols
        while symbols.count > 1 {
            var best: (rank: Int, index: Int)?
            for index in 0..<(symbols.count - 1) {
                if let rank = mergeRanks[MergePair(left: symbols[index], right: symbols[index + 1])], rank < (best?.rank ?? .max) {
                    best = (rank, index)
                }
            }
            guard let (_, index) = best else { break }
            let pair = MergePair(left: symbols[index], right: symbols[index + 1])
            // Merge every occurrence of the pair, left to right, as the reference does.
            var merged: [String] = []
            merged.reserveCapacity(symbols.count)
            var position = 0
            while position < symbols.count {
                if position + 1 < symbols.count && symbols[position] == pair.left && symbols[position + 1] == pair.right {
                    merged.append(pair.left + pair.right)
                    position += 2
                } else {
                    merged.append(symbols[position])
                    position += 1
                }
            }
            symbols = merged
        }
        return symbols
    }
}

/// GPT-2's reversible map between bytes and printable characters: printable Latin-1 bytes stand for themselves, the
/// others (space, control bytes, …) for the characters from U+0100 on, in byte order (space is "Ġ", U+0120).
enum ByteLevelAlphabet {
    /// The character standing for each byte.
    private static let characters: [Unicode.Scalar] = {
        let printable = Array(UInt8(ascii: "!")...UInt8(ascii: "~")) + Array(UInt8(0xA1)...UInt8(0xAC)) + Array(UInt8(0xAE)...UInt8(0xFF))
        let printableSet = Set(printable)
        var characters = [Unicode.Scalar](repeating: " ", count: 256)
        var next: UInt32 = 256
        for byte in 0...255 {
            if printableSet.contains(UInt8(byte)) {
                characters[byte] = Unicode.Scalar(UInt8(byte))
            } else {
                characters[byte] = Unicode.Scalar(next)!
                next += 1
            }
        }
        return characters
    }()

    private static let bytes: [Unicode.Scalar: UInt8] = Dictionary(uniqueKeysWithValues: characters.enumerated().map { ($1, UInt8($0)) })

    static func character(of byte: UInt8) -> Unicode.Scalar { characters[Int(byte)] }
    static func byte(of character: Unicode.Scalar) -> UInt8? { bytes[character] }
}
