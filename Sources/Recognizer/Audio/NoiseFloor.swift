/// Adds a faint, deterministic noise floor to audio before decoding.
///
/// Why: synthetic and edited audio often holds stretches of exact digital silence (samples of 0). Their log energy
/// is far below anything in the acoustic model's training data, so batch cepstral mean normalization, which averages
/// over the whole utterance, is dragged off and the silence model then outscores real words ("quebec romeo" decoded
/// as silence). Real microphones never produce digital silence; a floor at about -70 dBFS restores a realistic
/// background without audibly changing speech. The noise comes from a fixed-seed generator, so decoding stays
/// deterministic. Pure.
enum NoiseFloor {
    /// Returns `samples` with uniform noise of the given RMS level (dBFS) added; nil level leaves them unchanged.
    static func apply(_ samples: [Int16], level: Double?) -> [Int16] {
        guard let level, !samples.isEmpty else { return samples }
        // Uniform noise in [-a, a] has RMS a/√3.
        let amplitude = 32768.0 * pow10(level / 20) * 3.0.squareRoot()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return samples.map { sample in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53) * 2 - 1
            return Int16(clamping: Int((Double(sample) + unit * amplitude).rounded()))
        }
    }

    private static func pow10(_ exponent: Double) -> Double { exp(exponent * log(10)) }
}

import Foundation
