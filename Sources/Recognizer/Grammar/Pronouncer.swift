/// Derives a pronunciation (CMU phones) for a word the dictionary lacks, such as "easyjet" or "speedbird".
///
/// How: the word is cut into pieces at the lowest cost, where a piece of two or more letters that the dictionary
/// knows costs `dictionaryPieceCost` and a letter group read by simple English spelling rules (`letterRules`, e.g.
/// "sh" → SH, "ee" → IY, "c" before e/i/y → S) costs `letterCost` per letter. So "easyjet" becomes easy + jet
/// (IY Z IY JH EH T), and only what no dictionary word covers is read letter by letter. A missing word without a
/// vowel or of at most three letters ("klm", "lot") is taken as an acronym and spelled by letter names. Pure.
enum Pronouncer {
    /// Cost of one dictionary piece; lower than three letters, so known pieces win over spelling rules.
    static let dictionaryPieceCost = 10
    /// Cost per letter read by the spelling rules.
    static let letterCost = 4

    /// Phones for `word`, using `lookup` (the decoder's dictionary, returning "K AE T" or nil) for known pieces.
    static func phones(for word: String, lookup: (String) -> String?) -> String {
        if let known = lookup(word) { return known }
        if isAcronym(word), let spelled = spelledPhones(for: word, lookup: lookup) { return spelled }
        let letters = Array(word.lowercased().filter { $0.isLetter || $0.isNumber })
        guard !letters.isEmpty else { return "SIL" }
        // cost[i], phones[i]: the cheapest reading of letters[0..<i].
        var cost = Array(repeating: Int.max, count: letters.count + 1)
        var reading = Array(repeating: [String](), count: letters.count + 1)
        cost[0] = 0
        for start in 0..<letters.count where cost[start] != Int.max {
            for end in (start + 2)...max(start + 2, letters.count) where end <= letters.count {
                if let piece = lookup(String(letters[start..<end])), cost[start] + dictionaryPieceCost < cost[end] {
                    cost[end] = cost[start] + dictionaryPieceCost
                    reading[end] = reading[start] + piece.split(separator: " ").map(String.init)
                }
            }
            for rule in rules(at: start, in: letters) {
                let end = start + rule.length
                let total = cost[start] + letterCost * rule.length
                if total < cost[end] {
                    cost[end] = total
                    reading[end] = reading[start] + rule.phones
                }
            }
        }
        // Merge a doubled consonant read twice ("ll" → L L) into one phone.
        var phones: [String] = []
        for phone in reading[letters.count] where phones.last != phone || isVowel(phone) { phones.append(phone) }
        return phones.joined(separator: " ")
    }

    /// Phones for a word spelled letter by letter ("klm" → K EY EH L EH M), using the dictionary's letter names.
    static func spelledPhones(for word: String, lookup: (String) -> String?) -> String? {
        let pieces = word.lowercased().compactMap { letter in lookup(String(letter)) }
        return pieces.count == word.count ? pieces.joined(separator: " ") : nil
    }

    /// A word people spell rather than pronounce: no vowel letter, or three letters or fewer.
    static func isAcronym(_ word: String) -> Bool {
        word.count <= 3 || !word.lowercased().contains { "aeiouy".contains($0) }
    }

    private static func isVowel(_ phone: String) -> Bool { ["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"].contains(phone) }

    /// Letter groups that may start at `index`, longest first, with their phones.
    private static func rules(at index: Int, in letters: [Character]) -> [(length: Int, phones: [String])] {
        var found: [(Int, [String])] = []
        for length in [3, 2] where index + length <= letters.count {
            if let phones = letterRules[String(letters[index..<index + length])] { found.append((length, phones)) }
        }
        let letter = letters[index]
        let next = index + 1 < letters.count ? letters[index + 1] : nil
        let isLast = index == letters.count - 1
        switch letter {
        case "c": found.append((1, next.map { "eiy".contains($0) } == true ? ["S"] : ["K"]))
        case "g": found.append((1, next.map { "ei".contains($0) } == true ? ["JH"] : ["G"]))
        case "e" where isLast && letters.count > 3: found.append((1, []))
        case "y": found.append((1, isLast || index > 0 ? ["IY"] : ["Y"]))
        default: found.append((1, singleLetter[letter] ?? []))
        }
        return found
    }

    /// English spelling of groups of two or three letters.
    private static let letterRules: [String: [String]] = [
        "sch": ["SH"], "tch": ["CH"], "igh": ["AY"], "air": ["EH", "R"], "ear": ["IH", "R"],
        "sh": ["SH"], "ch": ["CH"], "th": ["TH"], "ph": ["F"], "ck": ["K"], "ng": ["NG"], "qu": ["K", "W"], "wh": ["W"],
        "kh": ["K"], "gh": ["G"], "ee": ["IY"], "ea": ["IY"], "oo": ["UW"], "ai": ["EY"], "ay": ["EY"], "ei": ["AY"],
        "ey": ["EY"], "ie": ["IY"], "ou": ["AW"], "ow": ["OW"], "oi": ["OY"], "oy": ["OY"], "au": ["AO"], "aw": ["AO"],
        "ui": ["UW"], "er": ["ER"], "ir": ["ER"], "ur": ["ER"], "ar": ["AA", "R"], "or": ["AO", "R"],
    ]

    /// One letter alone.
    private static let singleLetter: [Character: [String]] = [
        "a": ["AE"], "b": ["B"], "d": ["D"], "e": ["EH"], "f": ["F"], "h": ["HH"], "i": ["IH"], "j": ["JH"], "k": ["K"],
        "l": ["L"], "m": ["M"], "n": ["N"], "o": ["AA"], "p": ["P"], "q": ["K"], "r": ["R"], "s": ["S"], "t": ["T"],
        "u": ["AH"], "v": ["V"], "w": ["W"], "x": ["K", "S"], "z": ["Z"],
        "0": ["Z", "IH", "R", "OW"], "1": ["W", "AH", "N"], "2": ["T", "UW"], "3": ["TH", "R", "IY"], "4": ["F", "AO", "R"],
        "5": ["F", "AY", "V"], "6": ["S", "IH", "K", "S"], "7": ["S", "EH", "V", "AH", "N"], "8": ["EY", "T"],
        "9": ["N", "AY", "N"],
    ]
}
