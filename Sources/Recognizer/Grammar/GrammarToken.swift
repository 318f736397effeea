import FlightCore

/// One element of a spoken form: a dictionary word, or a shared grammar rule such as `<digit_0>` (zero | oh).
enum GrammarToken: Hashable, Comparable {
    case word(String)
    case digit(Int)
    case letter(Character)

    /// A word of a spoken number (`SpokenNumberForms`) as a grammar token.
    init(_ token: SpokenNumberToken) {
        switch token {
        case .word(let word): self = .word(word)
        case .digit(let digit): self = .digit(digit)
        }
    }

    /// The ways to say `number` (`SpokenNumberForms.forms(of:)`) as grammar tokens.
    static func numberForms(of number: Int) -> [[GrammarToken]] {
        SpokenNumberForms.forms(of: number).map { $0.map(GrammarToken.init) }
    }

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
