/// The words people use to spell airline codes and say numbers, shared by the normalizer and the recognizer's
/// grammar so that whatever the recognizer can hear, the normalizer can read.
public enum SpokenVocabulary {
    /// The NATO spelling alphabet, as the recognizer's dictionary writes the words.
    public static let natoWords: [Character: String] = [
        "A": "alpha", "B": "bravo", "C": "charlie", "D": "delta", "E": "echo", "F": "foxtrot", "G": "golf",
        "H": "hotel", "I": "india", "J": "juliet", "K": "kilo", "L": "lima", "M": "mike", "N": "november",
        "O": "oscar", "P": "papa", "Q": "quebec", "R": "romeo", "S": "sierra", "T": "tango", "U": "uniform",
        "V": "victor", "W": "whiskey", "X": "x-ray", "Y": "yankee", "Z": "zulu",
    ]

    /// Other spellings of NATO words that people type or recognizers emit.
    public static let natoVariants: [String: Character] = [
        "alfa": "A", "juliett": "J", "whisky": "W", "xray": "X", "x-ray": "X",
    ]

    /// Words of carrier phrases, greetings and hesitations that never carry a flight number.
    /// "a", "i", "oh" and some homophones ("you", "are") are listed too: they can also be letters, see `letterHomophones`.
    /// Apostrophes are dropped before lookup: "what's" is listed as "whats".
    public static let carrierWords: Set<String> = [
        // hesitations and politeness
        "um", "umm", "uh", "uhh", "er", "erm", "ah", "eh", "hmm", "mm", "oh", "well", "so", "okay", "ok", "hi", "hello", "hey",
        "please", "thanks", "thank", "you", "cheers", "sorry", "excuse", "yes", "yeah", "good", "morning", "afternoon", "evening",
        // question and carrier phrases
        "whats", "what", "where", "wheres", "when", "whens", "which", "how", "is", "are", "was", "be", "will", "would", "could",
        "can", "do", "does", "did", "the", "a", "an", "of", "for", "to", "at", "on", "in", "from", "with", "about", "and", "it", "its",
        "that", "this", "my", "me", "i", "im", "ive", "id", "am", "we", "were", "our", "us", "tell", "give", "show", "find", "check",
        "look", "looking", "up", "need", "want", "know", "like", "let", "lets", "get", "going", "gonna", "taking", "catching",
        "booked", "go", "by", "or", "if", "he", "travelling", "traveling", "flying", "any", "news", "now", "today", "tonight", "just",
        // the domain's own words
        "flight", "flights", "number", "no", "status", "gate", "gates", "terminal", "time", "times", "leave", "leaves", "leaving",
        "depart", "departs", "departure", "departing", "arrive", "arrives", "arrival", "arriving", "land", "lands", "landing",
        "landed", "board", "boards", "boarding", "delayed", "delay", "late", "early", "info", "information", "airline", "airlines",
        "airways", "belt", "baggage",
    ]

    /// Words that sound like a letter's name ("see" C, "why" Y, "zed" Z): read as letters only where an airline code is expected.
    public static let letterHomophones: [String: Character] = [
        "see": "C", "sea": "C", "cee": "C", "why": "Y", "wye": "Y", "are": "R", "ar": "R", "you": "U", "oh": "O",
        "bee": "B", "be": "B", "tea": "T", "tee": "T", "jay": "J", "kay": "K", "ex": "X", "zed": "Z", "zee": "Z",
        "eye": "I", "pea": "P", "pee": "P", "cue": "Q", "queue": "Q", "gee": "G", "dee": "D", "vee": "V", "em": "M",
        "en": "N", "el": "L", "ell": "L", "ef": "F", "eff": "F", "es": "S", "ess": "S", "aitch": "H", "haitch": "H",
    ]

    /// Digits as words, 0...9 ("niner" and "oh" are read too, see `digitVariants`).
    public static let digitWords = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    /// Other words for digits: radio "niner", "oh" for zero.
    public static let digitVariants: [String: Int] = ["niner": 9, "oh": 0, "o": 0, "nought": 0, "nil": 0]

    /// 10...19 as words, index 0 is "ten".
    public static let teenWords = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]

    /// 20, 30, ... 90 as words, index 0 is "twenty".
    public static let tensWords = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// The word travellers may put before a flight or between an airline and its number ("Swiss flight forty").
    public static let flightWord = "flight"

    /// Words that scale or repeat a number.
    public static let hundred = "hundred"
    public static let thousand = "thousand"
    public static let repeaters: [String: Int] = ["double": 2, "triple": 3]

    /// The value of a single number word (digit, teen or tens word, or a variant), if it is one.
    public static func value(ofNumberWord word: String) -> Int? {
        if let digit = digitWords.firstIndex(of: word) { return digit }
        if let digit = digitVariants[word] { return digit }
        if let teen = teenWords.firstIndex(of: word) { return 10 + teen }
        if let tens = tensWords.firstIndex(of: word) { return 20 + 10 * tens }
        return nil
    }

    /// The letter a spelled word stands for: a NATO word or the letter itself ("l", "x").
    public static func letter(ofSpelledWord word: String) -> Character? {
        let lower = word.lowercased()
        if lower.count == 1, let character = lower.uppercased().first, character.isLetter, character.isASCII { return character }
        if let variant = natoVariants[lower] { return variant }
        return natoWords.first { $0.value == lower }?.key
    }
}
