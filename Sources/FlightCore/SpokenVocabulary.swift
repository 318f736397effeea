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

    /// Digits as words, 0...9 ("niner" and "oh" are read too, see `digitVariants`).
    public static let digitWords = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    /// Other words for digits: radio "niner", "oh" for zero.
    public static let digitVariants: [String: Int] = ["niner": 9, "oh": 0, "o": 0, "nought": 0, "nil": 0]

    /// 10...19 as words, index 0 is "ten".
    public static let teenWords = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]

    /// 20, 30, ... 90 as words, index 0 is "twenty".
    public static let tensWords = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

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
