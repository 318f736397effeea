/// The fixed word lists of the normalizer: carrier phrases, letter homophones and number words.
/// Everything that depends on the airline directory is built in `SpokenFlightNormalizer.init`.
enum Lexicon {
    /// Carrier phrases, greetings and hesitations; see `SpokenVocabulary.carrierWords`.
    static let fillers = SpokenVocabulary.carrierWords
    /// Letter-name homophones; see `SpokenVocabulary.letterHomophones`.
    static let letterHomophones = SpokenVocabulary.letterHomophones

    /// Carrier words that sound like a digit: read as one, less plausibly, when they lead the number ("L X for two").
    static let digitHomophones: [String: Int] = ["to": 2, "too": 2, "for": 4, "fore": 4]

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
