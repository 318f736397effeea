/// Moves a constant offset in the samples back to zero before decoding.
///
/// Why: cheap microphones and sound cards add a DC offset. Its power hides quiet stretches from `AudioLevel`, so they
/// were decoded in full again, and the decoder's features do not wholly cancel it: the bundled "L X forty" sample with
/// an offset of 5% of full scale was heard as "l x four three" and answered LX 43 at confidence 0.99. A whole
/// utterance's mean is the offset; subtracting it leaves audio without one untouched (its mean rounds to 0). Pure.
enum DCOffset {
    /// `samples` less their mean, rounded to whole sample values and clamped to 16 bits.
    static func removed(from samples: [Int16]) -> [Int16] {
        guard !samples.isEmpty else { return samples }
        let offset = Int((samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count)).rounded())
        guard offset != 0 else { return samples }
        return samples.map { Int16(clamping: Int($0) - offset) }
    }
}
