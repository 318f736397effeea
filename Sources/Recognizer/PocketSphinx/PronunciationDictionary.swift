import Foundation
import Synchronization

/// A CMU pronunciation dictionary read once per file and process, and the slim copy of it that each decoder loads.
///
/// The library keeps its own copy of the whole dictionary in every decoder (about 17 MB for Debian's 134,723 lines),
/// and a recognizer holds a dozen decoders while the grammars use a few hundred words. So each decoder is given only
/// the words with alternate pronunciations (the library cannot add an alternate at run time: `ps_add_word` refuses
/// "forty(2)"), 16,926 lines of Debian's; every other word a grammar needs is added from here, with the same phones,
/// when the grammar is installed (`PassUtterance.addMissing`).
///
/// The slim copy is an unlinked temporary file read through `/proc/self/fd`: nothing is left on disk, and it lives as
/// long as the process. Where no temporary file can be written, decoders load the whole dictionary as before.
///
/// Thread rule: immutable after loading; `Sendable`.
final class PronunciationDictionary: Sendable {
    /// What decoders load as their dictionary: the slim copy, or the whole file when none could be written.
    let decoderPath: String
    /// Each word's first pronunciation (space-separated phones), as the library reads the file: the first definition
    /// of a word wins.
    private let firstPronunciations: [String: String]
    /// The slim copy's open descriptor, kept open for the process's life; -1 when there is none.
    private let slimDescriptor: Int32

    private init(path: String) throws {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RecognizerError(operation: "load dictionary", context: "\(path): \(error.localizedDescription)")
        }
        // Read as bytes: the file has 134,723 lines, and Swift's `Character` view takes a second over them.
        var first: [String: String] = [:]
        var lines: [(word: Range<Int>, line: Range<Int>)] = []
        var alternated = Set<[UInt8]>()
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            var wordEnd = lineStart
            while wordEnd < lineEnd, !Self.isBlank(bytes[wordEnd]) { wordEnd += 1 }
            guard wordEnd > lineStart, wordEnd < lineEnd else { continue }
            var phonesStart = wordEnd, phonesEnd = lineEnd
            while phonesStart < phonesEnd, Self.isBlank(bytes[phonesStart]) { phonesStart += 1 }
            while phonesEnd > phonesStart, Self.isBlank(bytes[phonesEnd - 1]) { phonesEnd -= 1 }
            lines.append((lineStart..<wordEnd, lineStart..<lineEnd))
            if let base = Self.baseWord(of: bytes[lineStart..<wordEnd]) {
                alternated.insert(Array(base))
            } else {
                let word = String(decoding: bytes[lineStart..<wordEnd], as: UTF8.self)
                if first[word] == nil { first[word] = String(decoding: bytes[phonesStart..<phonesEnd], as: UTF8.self) }
            }
        }
        firstPronunciations = first
        var slim: [UInt8] = []
        for entry in lines where alternated.contains(Array(Self.baseWord(of: bytes[entry.word]) ?? bytes[entry.word])) {
            slim += bytes[entry.line]
            slim.append(UInt8(ascii: "\n"))
        }
        slimDescriptor = Self.writeUnlinkedFile(slim)
        decoderPath = slimDescriptor >= 0 ? "/proc/self/fd/\(slimDescriptor)" : path
    }

    deinit { if slimDescriptor >= 0 { close(slimDescriptor) } }

    /// `word`'s first pronunciation, or nil when the dictionary lacks it.
    func pronunciation(of word: String) -> String? { firstPronunciations[word] }

    /// True when decoders load the slim copy rather than the whole file.
    var isSlim: Bool { slimDescriptor >= 0 }

    /// "forty" for "forty(2)"; nil for a word that is no alternate.
    private static func baseWord(of word: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard word.last == UInt8(ascii: ")"), let open = word.lastIndex(of: UInt8(ascii: "(")), open > word.startIndex,
              open + 2 < word.endIndex, word[(open + 1)..<(word.endIndex - 1)].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return word[..<open]
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }

    /// Writes `contents` to a temporary file that is unlinked at once; returns its descriptor, or -1.
    private static func writeUnlinkedFile(_ bytes: [UInt8]) -> Int32 {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/flightvoice-dictionary-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return -1 }
        unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                close(descriptor)
                return -1
            }
            written += count
        }
        return descriptor
    }

    private static let loaded = Mutex<[String: PronunciationDictionary]>([:])

    /// The dictionary at `path`, read on first use.
    static func shared(path: String) throws -> PronunciationDictionary {
        try loaded.withLock { loaded in
            if let dictionary = loaded[path] { return dictionary }
            let dictionary = try PronunciationDictionary(path: path)
            loaded[path] = dictionary
            return dictionary
        }
    }
}
