/// A recognized word with its timing (seconds from the start of the audio) and confidence (0...1).
public struct RecognizedWord: Sendable, Codable, Hashable {
    public let word: String
    public let start: Double
    public let end: Double
    public let confidence: Double

    public init(word: String, start: Double, end: Double, confidence: Double) {
        self.word = word
        self.start = start
        self.end = end
        self.confidence = confidence
    }
}

/// What a recognizer heard in one utterance.
public struct Transcript: Sendable, Codable, Hashable {
    /// The best hypothesis, words separated by single spaces; empty when nothing was heard.
    public let text: String
    public let words: [RecognizedWord]
    /// Confidence of the whole hypothesis, 0...1.
    public let confidence: Double
    /// Other hypotheses, best first, without duplicates and without `text`.
    public let alternatives: [String]

    public init(text: String, words: [RecognizedWord], confidence: Double, alternatives: [String]) {
        self.text = text
        self.words = words
        self.confidence = confidence
        self.alternatives = alternatives
    }

    public static let empty = Transcript(text: "", words: [], confidence: 0, alternatives: [])
}

/// How a query (typed or spoken) ended: the statuses of the CLI's exit codes and of JSON output.
public enum AnswerStatus: String, Sendable, Codable, Hashable {
    /// A flight number was understood and today's flights have it.
    case found
    /// A flight number was understood but no flight today has it.
    case notFound = "not_found"
    /// Speech was heard, but not confidently as a flight number.
    case notUnderstood = "not_understood"
    /// The audio held no speech.
    case noSpeech = "no_speech"
    /// The input could not be processed (unreadable file, database error).
    case error
}

/// The full answer to one query: what was heard, what it was read as, and what was found.
public struct QueryAnswer: Sendable, Codable, Hashable {
    public let status: AnswerStatus
    /// The query text, or the transcript of the audio.
    public let heard: String
    /// The flight number understood, when one was.
    public let flightNumber: FlightNumber?
    /// Ranked readings of the query as flight numbers.
    public let candidates: [FlightCandidate]
    /// The movement found, when `status` is `found`.
    public let lookup: FlightLookup?
    /// Close matches offered when `status` is `notFound` or `notUnderstood` ("Did you mean…?").
    public let suggestions: [FlightLookup]
    /// Why the query was not answered, for people.
    public let message: String?

    public init(
        status: AnswerStatus, heard: String, flightNumber: FlightNumber?, candidates: [FlightCandidate],
        lookup: FlightLookup?, suggestions: [FlightLookup], message: String?
    ) {
        self.status = status
        self.heard = heard
        self.flightNumber = flightNumber
        self.candidates = candidates
        self.lookup = lookup
        self.suggestions = suggestions
        self.message = message
    }
}

/// The result of recognizing one clip: its answer plus the recognizer's evidence.
public struct ClipReport: Sendable, Codable, Hashable {
    /// The clip's path as given on the command line (or "-" for standard input).
    public let path: String
    public let answer: QueryAnswer
    public let transcript: Transcript
    /// Length of the audio in seconds; 0 when it could not be read.
    public let audioDuration: Double
    /// Wall-clock seconds spent decoding.
    public let processingSeconds: Double
    /// What went wrong when `answer.status` is `error`.
    public let error: String?

    public init(path: String, answer: QueryAnswer, transcript: Transcript, audioDuration: Double, processingSeconds: Double, error: String?) {
        self.path = path
        self.answer = answer
        self.transcript = transcript
        self.audioDuration = audioDuration
        self.processingSeconds = processingSeconds
        self.error = error
    }
}
