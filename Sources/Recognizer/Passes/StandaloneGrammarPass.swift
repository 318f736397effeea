/// Today's-grammar pass alone, built as `FlightRecognizer` builds it but without the other passes, the audio
/// preparation or the decision: for measuring its decoder against PocketSphinx's own `pocketsphinx_batch` on the same
/// grammar and samples (`Benchmarks/decoder-benchmark`).
///
/// Thread rule: not `Sendable` (it owns a decoder); one thread at a time.
public final class StandaloneGrammarPass {
    private let pass: GrammarPass

    /// Loads the models as `configuration` says and installs `jsgf` with its words, adding `pronunciations` (word →
    /// phones) for those the dictionary lacks (what `flightvoice recognize --write-grammar` writes).
    public init(jsgf: String, pronunciations: [String: String], configuration: RecognizerConfiguration) throws {
        try configuration.validate()
        let decoder = try PocketSphinxDecoder(arguments: configuration.commonArguments, verbose: configuration.verbose)
        let words = Set(try decoder.libraryAutomaton(of: jsgf, name: "words").wordGraph?.words ?? []).union(pronunciations.keys)
        pass = GrammarPass(decoder: decoder)
        var added = pronunciations
        try pass.utterance.install(jsgf, words: words.sorted(), pronunciations: &added)
    }

    /// The words heard in `samples` (16 kHz mono) as one whole utterance, decoded as `FlightRecognizer` decodes it:
    /// cepstra computed once, then searched ("" without a path).
    public func transcript(of samples: [Int16]) throws -> String {
        let cepstra = try samples.withUnsafeBufferPointer { try pass.utterance.decoder.cepstra(of: $0) }
        return try pass.decode(cepstra).text
    }
}
