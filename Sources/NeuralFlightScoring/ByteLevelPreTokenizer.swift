/// GPT-2's pre-tokenisation, which Whisper's tokenizer uses: text is cut into pieces before byte-pair encoding, by the
/// regular expression `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`, tried
/// alternative by alternative at each position. Written as a scanner over Unicode scalars (no regular-expression
/// engine), with the same classes: `\p{L}` letters, `\p{N}` numbers, `\s` Unicode white space. Pure.
enum ByteLevelPreTokenizer {
    /// The contractions GPT-2 keeps as pieces of their own, in the expression's order (case-sensitive, as there).
    private static let contractions: [[Unicode.Scalar]] = ["s", "t", "re", "ve", "m", "ll", "d"].map { Array($0.unicodeScalars) }

    /// The pieces of `text`, in order; joined they give `text` back.
    static func pieces(of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [String] = []
        var start = 0
        while start < scalars.count {
            let end = pieceEnd(scalars, from: start)
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[start..<end])
            pieces.append(String(piece))
            start = end
        }
        return pieces
    }

    /// Where the piece that starts at `start` ends (exclusive); always past `start`.
    private static func pieceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        let count = scalars.count
        // 's 't 're 've 'm 'll 'd
        if scalars[start] == "'" {
            for contraction in contractions where start + 1 + contraction.count <= count
                && Array(scalars[(start + 1)..<(start + 1 + contraction.count)]) == contraction {
                return start + 1 + contraction.count
            }
        }
        // An optional single space, then a run of one class: letters, numbers, or neither (nor white space).
        let classStart = scalars[start] == " " && start + 1 < count ? start + 1 : start
        for runClass in [isLetter, isNumber, isOther] as [(Unicode.Scalar) -> Bool] where runClass(scalars[classStart]) {
            var end = classStart + 1
            while end < count && runClass(scalars[end]) { end += 1 }
            return end
        }
        // White space: `\s+(?!\S)` takes a run that is not followed by a non-space, backing off one scalar when it is;
        // a single space before a non-space falls to `\s+`.
        var end = start
        while end < count && scalars[end].properties.isWhitespace { end += 1 }
        if end == start { return start + 1 }  // unreachable: every scalar is in one of the classes above
        if end == count || end - start == 1 { return end }
        return end - 1
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    private static func isNumber(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    private static func isOther(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !isLetter(scalar) && !isNumber(scalar)
    }
}
