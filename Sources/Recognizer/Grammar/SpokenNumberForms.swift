import FlightCore

/// One element of a spoken form: a dictionary word, or a shared grammar rule such as `<digit_0>` (zero | oh).
enum GrammarToken: Hashable, Comparable {
    case word(String)
    case digit(Int)
    case letter(Character)

    /// The JSGF text of the token: the word, or a reference to its shared rule.
    var jsgf: String {
        if case .word(let word) = self { return word }
        return "<\(ruleName ?? "")>"
    }

    /// The shared grammar rule the token stands for ("letter_z", "digit_0"); nil for a plain word.
    var ruleName: String? {
        switch self {
        case .word: nil
        case .digit(let digit): "digit_\(digit)"
        case .letter(let letter): "letter_\(letter.lowercased())"
        }
    }

    /// The word sequences the token can be heard as: its rule's alternatives in `rules` (see
    /// `FlightGrammar.ruleAlternatives`), or the word itself.
    func spellings(in rules: [String: [[String]]]) -> [[String]] {
        if case .word(let word) = self { return [[word]] }
        return ruleName.flatMap { rules[$0] } ?? []
    }

    static func < (lhs: GrammarToken, rhs: GrammarToken) -> Bool { lhs.jsgf < rhs.jsgf }
}

/// The ways people say a flight's number (1...9999), as token sequences.
///
/// Digit by digit ("four zero", "nine oh oh", "double four"), in pairs from the right ("forty", "two eighty seven",
/// "twelve thirty four", "nineteen oh one"), with hundreds and thousands ("nine hundred", "forty four hundred",
/// "two thousand one"), and digit by digit with leading zeros up to four digits ("zero four four two").
enum SpokenNumberForms {
    /// All forms of `number`, without duplicates, in a stable order.
    static func forms(of number: Int) -> [[GrammarToken]] {
        precondition((1...FlightNumber.maximumNumber).contains(number))
        let digits = String(number).map { Int(String($0))! }
        var forms: [[GrammarToken]] = []
        forms += digitByDigit(digits)
        for padding in 1...max(1, 4 - digits.count) where digits.count + padding <= 4 {
            forms += digitByDigit(Array(repeating: 0, count: padding) + digits)
        }
        switch digits.count {
        case 2:
            forms.append(pair(digits[0], digits[1]))
        case 3:
            forms.append([.digit(digits[0])] + pair(digits[1], digits[2]))
            forms.append(hundreds(digits[0], rest: digits[1] * 10 + digits[2]))
        case 4:
            forms.append(pair(digits[0], digits[1]) + pair(digits[2], digits[3]))
            let rest = digits[2] * 10 + digits[3]
            if rest == 0 { forms.append(pair(digits[0], digits[1]) + [.word(SpokenVocabulary.hundred)]) }
            var thousands: [GrammarToken] = [.digit(digits[0]), .word(SpokenVocabulary.thousand)]
            if digits[1] != 0 { thousands += hundreds(digits[1], rest: rest) } else if rest != 0 { thousands += words(rest) }
            forms.append(thousands)
        default:
            break
        }
        var seen = Set<[GrammarToken]>()
        return forms.filter { seen.insert($0).inserted }
    }

    /// "four zero" and, where equal digits follow each other, "double four" and "triple seven".
    private static func digitByDigit(_ digits: [Int]) -> [[GrammarToken]] {
        // Expand left to right, branching where a run can be said with "double" or "triple".
        func expand(_ position: Int) -> [[GrammarToken]] {
            if position == digits.count { return [[]] }
            var forms = expand(position + 1).map { [GrammarToken.digit(digits[position])] + $0 }
            for (word, count) in SpokenVocabulary.repeaters.sorted(by: { $0.value < $1.value })
            where position + count <= digits.count && digits[position..<position + count].allSatisfy({ $0 == digits[position] }) {
                let run: [GrammarToken] = [.word(word), .digit(digits[position])]
                forms += expand(position + count).map { run + $0 }
            }
            return forms
        }
        return expand(0)
    }

    /// Two digits as one number when the first is not zero ("forty", "eighty seven", "twelve"), else digit by digit.
    private static func pair(_ tens: Int, _ ones: Int) -> [GrammarToken] {
        tens == 0 ? [.digit(0), .digit(ones)] : words(tens * 10 + ones)
    }

    /// 1...99 in words: "seven", "twelve", "forty", "eighty seven".
    private static func words(_ value: Int) -> [GrammarToken] {
        switch value {
        case 0..<10: [.digit(value)]
        case 10..<20: [.word(SpokenVocabulary.teenWords[value - 10])]
        default:
            [.word(SpokenVocabulary.tensWords[value / 10 - 2])] + (value % 10 == 0 ? [] : [.digit(value % 10)])
        }
    }

    /// "nine hundred", "two hundred eighty seven".
    private static func hundreds(_ hundreds: Int, rest: Int) -> [GrammarToken] {
        [.digit(hundreds), .word(SpokenVocabulary.hundred)] + (rest == 0 ? [] : words(rest))
    }
}
