/// One way to read a run of number words as the digits of a flight number.
struct NumberReading {
    /// The digits in order, possibly with leading zeros ("0442").
    var digits: String
    /// Plausibility of this grouping, 0...1.
    var score: Double
    var readings: [TokenReading]
}

/// Reads runs of number words ("two eighty seven", "one hundred and five", "double four", "0040") as digit strings.
enum NumberReader {
    /// How plausible it is that "eighty seven" inside a longer number meant "eight-oh, seven" (807) rather than 87.
    static let splitTensScore = 0.15
    /// The most groupings kept per position; the grammar rarely yields more than two.
    static let maximumReadingsPerPosition = 4

    /// Every grouping of all of `words` (parallel to `tokens`), best first; empty when the words do not form a number.
    static func readings(of words: [NumberWord], tokens: [String]) -> [NumberReading] {
        precondition(words.count == tokens.count)
        var memo = [[NumberReading]?](repeating: nil, count: words.count + 1)
        memo[words.count] = [NumberReading(digits: "", score: 1, readings: [])]
        for start in stride(from: words.count - 1, through: 0, by: -1) {
            var found: [NumberReading] = []
            for group in groups(in: words, at: start) {
                guard let rest = memo[group.end] else { continue }
                let groupReadings = (start..<group.end).map { index in
                    TokenReading(token: tokens[index], readAs: index == start ? group.digits : "", role: .number)
                }
                for tail in rest {
                    found.append(NumberReading(digits: group.digits + tail.digits, score: group.score * tail.score, readings: groupReadings + tail.readings))
                }
            }
            found.sort { $0.score > $1.score }
            memo[start] = Array(found.prefix(maximumReadingsPerPosition))
        }
        return memo[0] ?? []
    }

    /// A group of words that says a known number of digits, ending before `end`.
    private struct Group {
        var digits: String
        var end: Int
        var score: Double
    }

    /// The groups that can start at `start`: a digit, a teen, a tens word, "double x", "x hundred ...", "x thousand ...".
    private static func groups(in words: [NumberWord], at start: Int) -> [Group] {
        let next = start + 1 < words.count ? words[start + 1] : nil
        switch words[start] {
        case .written(let text):
            return [Group(digits: text, end: start + 1, score: 1)]
        case .digit(let digit):
            if digit > 0, let scaled = scaledNumber(leading: digit, in: words, at: start + 1) { return [scaled] }
            return [Group(digits: String(digit), end: start + 1, score: 1)]
        case .teen(let teen):
            if let scaled = scaledNumber(leading: teen, in: words, at: start + 1), scaled.digits.count == 4 { return [scaled] }
            return [Group(digits: String(teen), end: start + 1, score: 1)]
        case .tens(let tens):
            if let unit = next?.singleDigit, unit > 0, case .digit = next! {
                var result = [Group(digits: String(tens + unit), end: start + 2, score: 1)]
                // Inside a longer number the recognizer's word boundary may be wrong: "two eighty seven" could be 2807.
                if start > 0 { result.append(Group(digits: String(tens), end: start + 1, score: splitTensScore)) }
                return result
            }
            return [Group(digits: String(tens), end: start + 1, score: 1)]
        case .repeater(let times):
            guard let digit = next?.singleDigit else { return [] }
            return [Group(digits: String(repeating: String(digit), count: times), end: start + 2, score: 1)]
        case .hundred, .thousand, .conjunction:
            return []
        }
    }

    /// "`leading` hundred [and] [below 100]" or "`leading` thousand [x hundred] [and] [below 100]", when `words[at]` scales.
    private static func scaledNumber(leading: Int, in words: [NumberWord], at index: Int) -> Group? {
        guard index < words.count else { return nil }
        var position = index + 1
        var value: Int
        switch words[index] {
        case .hundred:
            value = leading * 100
        case .thousand:
            guard leading < 10 else { return nil }
            value = leading * 1000
            if position + 1 < words.count, case .digit(let hundreds) = words[position], hundreds > 0, words[position + 1] == .hundred {
                value += hundreds * 100
                position += 2
            }
        default:
            return nil
        }
        if position < words.count, words[position] == .conjunction { position += 1 }
        if let (rest, end) = belowHundred(in: words, at: position) {
            value += rest
            position = end
        } else if position > index + 1, words[position - 1] == .conjunction {
            position -= 1  // a trailing "and" belongs to the sentence, not the number
        }
        guard value <= FlightNumber.maximumNumber else { return nil }
        return Group(digits: String(value), end: position, score: 1)
    }

    /// 1...99 said after "hundred": "five", "oh five", "twelve", "forty", "forty two".
    private static func belowHundred(in words: [NumberWord], at index: Int) -> (Int, Int)? {
        guard index < words.count else { return nil }
        switch words[index] {
        case .digit(let digit) where digit > 0:
            return (digit, index + 1)
        case .digit(0):
            if index + 1 < words.count, case .digit(let digit) = words[index + 1], digit > 0 { return (digit, index + 2) }
            return nil
        case .teen(let teen):
            return (teen, index + 1)
        case .tens(let tens):
            if index + 1 < words.count, case .digit(let digit) = words[index + 1], digit > 0 { return (tens + digit, index + 2) }
            return (tens, index + 1)
        default:
            return nil
        }
    }
}
