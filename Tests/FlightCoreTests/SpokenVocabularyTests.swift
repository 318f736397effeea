import Testing
import FlightCore

@Suite("SpokenVocabulary")
struct SpokenVocabularyTests {
    @Test func natoAlphabetCoversEveryLetterOnce() {
        #expect(SpokenVocabulary.natoWords.count == 26)
        #expect(Set(SpokenVocabulary.natoWords.values).count == 26)
        for (letter, word) in SpokenVocabulary.natoWords {
            #expect(SpokenVocabulary.letter(ofSpelledWord: word) == letter)
        }
    }

    @Test("reads spelled letters", arguments: [("l", "L"), ("X", "X"), ("lima", "L"), ("XRAY", "X"), ("alfa", "A"), ("juliett", "J"), ("whisky", "W")])
    func spelledLetters(word: String, letter: String) {
        #expect(SpokenVocabulary.letter(ofSpelledWord: word).map(String.init) == letter)
    }

    @Test("refuses non-letters", arguments: ["", "4", "lx", "swiss", "é"])
    func nonLetters(word: String) {
        #expect(SpokenVocabulary.letter(ofSpelledWord: word) == nil)
    }

    @Test("reads number words", arguments: [
        ("zero", 0), ("oh", 0), ("o", 0), ("nought", 0), ("one", 1), ("niner", 9), ("nine", 9), ("ten", 10), ("nineteen", 19), ("twenty", 20), ("ninety", 90),
    ])
    func numberWords(word: String, value: Int) {
        #expect(SpokenVocabulary.value(ofNumberWord: word) == value)
    }

    @Test func nonNumberWords() {
        #expect(SpokenVocabulary.value(ofNumberWord: "hundred") == nil)
        #expect(SpokenVocabulary.value(ofNumberWord: "forty-two") == nil)
        #expect(SpokenVocabulary.repeaters["double"] == 2)
        #expect(SpokenVocabulary.repeaters["triple"] == 3)
    }

    @Test func homophonesAreNotNatoWordsAndCarrierWordsAreLowerCase() {
        #expect(SpokenVocabulary.letterHomophones["see"] == "C")
        #expect(SpokenVocabulary.letterHomophones["why"] == "Y")
        #expect(Set(SpokenVocabulary.letterHomophones.keys).isDisjoint(with: SpokenVocabulary.natoWords.values))
        #expect(SpokenVocabulary.carrierWords.allSatisfy { $0 == $0.lowercased() && !$0.contains("'") && !$0.contains(" ") })
        // No number word or NATO word is a carrier word, except "oh" (a hesitation as well as zero).
        let numberWords = SpokenVocabulary.digitWords + SpokenVocabulary.teenWords + SpokenVocabulary.tensWords
        #expect(SpokenVocabulary.carrierWords.isDisjoint(with: numberWords + Array(SpokenVocabulary.natoWords.values)))
    }
}
