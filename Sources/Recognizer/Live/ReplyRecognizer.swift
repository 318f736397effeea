import Foundation

/// A short spoken reply to the kiosk: the answer to "Did you mean …?", or asking to hear the answer again.
public enum SpokenReply: String, Sendable, Hashable {
    case yes, no, repeatAnswer = "repeat"
}

/// Recognizes the few reply words ("yes", "no", "repeat" and their common variants) in one short utterance, and
/// refuses anything that fits them poorly, so a cough never confirms a flight.
///
/// How it refuses: the words' acoustic score per frame is compared with a free phone loop's over the same frames (the
/// log-likelihood ratio the flight decision also starts from); a forced fit of noise or of other words falls far below.
///
/// Thread rule: not `Sendable`; owns two decoders; use from one thread.
final class ReplyRecognizer {
    /// The phrases and the reply each means.
    static let phrases: [(words: String, reply: SpokenReply)] = [
        ("yes", .yes), ("yeah", .yes), ("yes please", .yes), ("correct", .yes), ("that's right", .yes),
        ("no", .no), ("nope", .no), ("no thanks", .no), ("wrong", .no),
        ("repeat", .repeatAnswer), ("say again", .repeatAnswer), ("again", .repeatAnswer), ("repeat please", .repeatAnswer),
    ]
    /// The lowest acceptable mean score per word frame against the phone loop (the decoder's scaled log base, as the
    /// flight fit score). Chosen on our own synthetic replies against noise bursts and flight numbers (the test
    /// fixtures); a clear reply scores about -20 to -45, a forced cough or door well under -90.
    static let acceptScore = -70.0

    private let replies: PassUtterance
    private let phoneLoop: PassUtterance
    private let noiseFloorLevel: Double?

    init(configuration: RecognizerConfiguration) throws {
        noiseFloorLevel = configuration.noiseFloorLevel
        let decoder = try PocketSphinxDecoder(arguments: configuration.commonArguments, verbose: configuration.verbose)
        phoneLoop = PassUtterance(decoder: try PocketSphinxDecoder(arguments: configuration.phoneLoopArguments, verbose: configuration.verbose))
        let alternatives = Self.phrases.map(\.words).joined(separator: " | ")
        let words = Set(Self.phrases.flatMap { $0.words.split(separator: " ").map(String.init) })
        let missing = decoder.missingWords(words.sorted())
        if let word = missing.unknown.first {
            throw RecognizerError(operation: "load reply words", context: "'\(word)' is missing from the dictionary")
        }
        try decoder.addWords(missing.inDictionary)
        // A handful of words: nothing to save, and the reply thresholds were chosen on the library's own automaton.
        try decoder.useGrammar("#JSGF V1.0;\ngrammar reply;\npublic <reply> = \(alternatives);\n", name: "reply", minimized: false)
        replies = PassUtterance(decoder: decoder)
    }

    /// The reply heard in `samples` (16 kHz mono), or nil when none fits well enough.
    func reply(in samples: [Int16]) throws -> (reply: SpokenReply, score: Double)? {
        let prepared = NoiseFloor.apply(DCOffset.removed(from: samples), level: noiseFloorLevel)
        try Self.decodeWhole(prepared, on: replies)
        guard let text = replies.decoder.hypothesis()?.text, let reply = Self.phrases.first(where: { $0.words == text })?.reply else { return nil }
        let words = replies.decoder.segments().filter { FlightRecognizer.isWord($0.word) }
        guard !words.isEmpty else { return nil }
        try Self.decodeWhole(prepared, on: phoneLoop)
        let phones = phoneLoop.decoder.segments()
        let frames = words.reduce(0) { $0 + $1.frameCount }
        let score = words.reduce(0.0) { $0 + DecisionFeatures.fitDifference($1, against: phones) } / Double(max(1, frames))
        return score >= Self.acceptScore ? (reply, score) : nil
    }

    private static func decodeWhole(_ samples: [Int16], on utterance: PassUtterance) throws {
        try utterance.begin(feeding: .wholeUtterance)
        try utterance.feed(samples[...])
        try utterance.end()
    }
}
