/// One word of a spoken flight number: a plain word ("forty", "hundred", "double") or a digit, which may be said in
/// more than one way ("zero" or "oh"; see the grammar's shared digit rules and `SpokenVocabulary.digitVariants`).
public enum SpokenNumberToken: Hashable, Sendable {
    case word(String)
    case digit(Int)
}

/// The ways people say a flight's number (1...9999), as token sequences.
///
/// Digit by digit ("four zero", "nine oh oh", "double four"), in pairs from the right ("forty", "two eighty seven",
/// "twelve thirty four", "nineteen oh one"), with hundreds and thousands ("nine hundred", "forty four hundred",
/// "two thousand one"), and digit by digit with leading zeros up to four digits ("zero four four two"). The one table
/// of number forms: the recognizer's grammar and the neural scorer's written candidates are both built from it.
public enum SpokenNumberForms {
    /// All forms of `number`, without duplicates, in a stable order.
    public static func forms(of number: Int) -> [[SpokenNumberToken]] {
        precondition((1...FlightNumber.maximumNumber).contains(number))
        let digits = String(number).map { Int(String($0))! }
        var forms: [[SpokenNumberToken]] = []
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
            var thousands: [SpokenNumberToken] = [.digit(digits[0]), .word(SpokenVocabulary.thousand)]
            if digits[1] != 0 { thousands += hundreds(digits[1], rest: rest) } else if rest != 0 { thousands += words(rest) }
            forms.append(thousands)
        default:
            break
        }
        var seen = Set<[SpokenNumberToken]>()
        return forms.filter { seen.insert($0).inserted }
    }

    /// "four zero" and, where equal digits follow each other, "double four" and "triple seven".
    private static func digitByDigit(_ digits: [Int]) -> [[SpokenNumberToken]] {
        // Expand left to right, branching where a run can be said with "double" or "triple".
        func expand(_ position: Int) -> [[SpokenNumberToken]] {
            if position == digits.count { return [[]] }
            var forms = expand(position + 1).map { [SpokenNumberToken.digit(digits[position])] + $0 }
            for (word, count) in SpokenVocabulary.repeaters.sorted(by: { $0.value < $1.value })
            where position + count <= digits.count && digits[position..<position + count].allSatisfy({ $0 == digits[position] }) {
                let run: [SpokenNumberToken] = [.word(word), .digit(digits[position])]
                forms += expand(position + count).map { run + $0 }
            }
            return forms
        }
        return expand(0)
    }

    /// Two digits as one number when the first is not zero ("forty", "eighty seven", "twelve"), else digit by digit.
    private static func pair(_ tens: Int, _ ones: Int) -> [SpokenNumberToken] {
        tens == 0 ? [.digit(0), .digit(ones)] : words(tens * 10 + ones)
    }

    /// 1...99 in words: "seven", "twelve", "forty", "eighty seven".
    private static func words(_ value: Int) -> [SpokenNumberToken] {
        switch value {
        case 0..<10: [.digit(value)]
        case 10..<20: [.word(SpokenVocabulary.teenWords[value - 10])]
        default:
            [.word(SpokenVocabulary.tensWords[value / 10 - 2])] + (value % 10 == 0 ? [] : [.digit(value % 10)])
        }
    }

    /// "nine hundred", "two hundred eighty seven".
    private static func hundreds(_ hundreds: Int, rest: Int) -> [SpokenNumberToken] {
        [.digit(hundreds), .word(SpokenVocabulary.hundred)] + (rest == 0 ? [] : words(rest))
    }
}
