/// Takes a microphone's DC offset out of the samples before decoding.
///
/// Why: cheap microphones and sound cards add a DC offset, and spliced recordings change it from part to part. Its
/// power hides quiet stretches from `AudioLevel`, so they were decoded in full again, and the decoder's features do
/// not wholly cancel it: the bundled "L X forty" sample with an offset of 5% of full scale was heard as "l x four three"
/// and answered LX 43 at confidence 0.99. Subtracting the clip's mean is not enough: where the offset differs between
/// parts it puts one into the pauses. A one-pole high-pass (the classic DC blocker) follows the offset instead; at
/// 16 kHz it passes everything above about 13 Hz, far below the lowest filter of the acoustic model (130 Hz). Pure.
enum DCOffset {
    /// The pole of the blocker: the offset is followed with a time constant of 1 / (1 - pole) samples (12.5 ms).
    static let pole = 0.995

    /// `samples` with their slowly varying offset removed, rounded and clamped to 16 bits.
    static func removed(from samples: [Int16]) -> [Int16] {
        guard let first = samples.first else { return samples }
        var previousInput = Double(first)
        var previousOutput = 0.0
        return samples.map { sample in
            let input = Double(sample)
            let output = input - previousInput + pole * previousOutput
            previousInput = input
            previousOutput = output
            return Int16(clamping: Int(output.rounded()))
        }
    }
}
