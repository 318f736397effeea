/// The fixed word lists of the normalizer: carrier phrases, letter homophones and number words.
/// Everything that depends on the airline directory is built in `SpokenFlightNormalizer.init`.
enum Lexicon {
    /// Words of carrier phrases, greetings and hesitations that never carry a flight number.
    /// "a", "i", "oh" and some homophones ("you", "are") are listed too: they can also be letters, see `letterHomophones`.
    static let fillers: Set<String> = [
        // hesitations and politeness
        "um", "umm", "uh", "uhh", "er", "erm", "ah", "eh", "hmm", "mm", "oh", "well", "so", "okay", "ok", "hi", "hello", "hey",
        "please", "thanks", "thank", "you", "cheers", "sorry", "excuse", "yes", "yeah", "good", "morning", "afternoon", "evening",
        // question and carrier phrases
        "whats", "what", "where", "wheres", "when", "whens", "which", "how", "is", "are", "was", "be", "will", "would", "could",
        "can", "do", "does", "did", "the", "a", "an", "of", "for", "to", "at", "on", "in", "from", "with", "about", "and", "it", "its",
        "that", "this", "my", "me", "i", "im", "ive", "id", "am", "we", "were", "our", "us", "tell", "give", "show", "find", "check",
        "look", "looking", "up", "need", "want", "know", "like", "let", "lets", "get", "going", "gonna", "taking", "catching",
        "booked", "travelling", "traveling", "flying", "any", "news", "now", "today", "tonight", "just",
        // the domain's own words
        "flight", "flights", "number", "no", "status", "gate", "gates", "terminal", "time", "times", "leave", "leaves", "leaving",
        "depart", "departs", "departure", "departing", "arrive", "arrives", "arrival", "arriving", "land", "lands", "landing",
        "landed", "board", "boards", "boarding", "delayed", "delay", "late", "early", "info", "information", "airline", "airlines",
        "airways", "belt", "baggage",
    ]

    /// Words that sound like a letter name: used only where an airline code is expected.
    static let letterHomophones: [String: Character] = [
        "see": "C", "sea": "C", "cee": "C", "why": "Y", "wye": "Y", "are": "R", "ar": "R", "you": "U", "oh": "O",
        "bee": "B", "be": "B", "tea": "T", "tee": "T", "jay": "J", "kay": "K", "ex": "X", "zed": "Z", "zee": "Z",
        "eye": "I", "pea": "P", "pee": "P", "cue": "Q", "queue": "Q", "gee": "G", "dee": "D", "vee": "V", "em": "M",
        "en": "N", "el": "L", "ell": "L", "ef": "F", "eff": "F", "es": "S", "ess": "S", "aitch": "H", "haitch": "H",
    ]

    /// Words that continue a spelled letter: "x ray" is X, "double u" is W.
    static let xRaySecondHalf = "ray"
    static let doubleWord = "double"
    static let doubleULetters: Set<String> = ["u", "you"]

    /// "and" may sit inside a number ("one hundred and five").
    static let numberConjunction = "and"
}

/// What one number token contributes, before it is grouped into a flight number.
enum NumberWord: Hashable {
    /// A single digit said as a word ("four", "oh", "niner").
    case digit(Int)
    /// Digits as written ("40", "0040").
    case written(String)
    /// 10...19.
    case teen(Int)
    /// 20, 30, ... 90.
    case tens(Int)
    case hundred
    case thousand
    /// "double" (2) or "triple" (3): repeats the next digit.
    case repeater(Int)
    /// "and" inside "one hundred and five".
    case conjunction

    /// The number word a lower-case token stands for, if any.
    init?(token: String) {
        if token.allSatisfy({ $0.isASCII && $0.isNumber }) {
            self = .written(token)
        } else if let value = SpokenVocabulary.value(ofNumberWord: token) {
            switch value {
            case 0...9: self = .digit(value)
            case 10...19: self = .teen(value)
            default: self = .tens(value)
            }
        } else if token == SpokenVocabulary.hundred {
            self = .hundred
        } else if token == SpokenVocabulary.thousand {
            self = .thousand
        } else if let times = SpokenVocabulary.repeaters[token] {
            self = .repeater(times)
        } else if token == Lexicon.numberConjunction {
            self = .conjunction
        } else {
            return nil
        }
    }

    /// The digit, when this word is one digit (said or written).
    var singleDigit: Int? {
        switch self {
        case .digit(let digit): digit
        case .written(let text) where text.count == 1: Int(text)
        default: nil
        }
    }
}
