import AudioInput
import CFFTW
import Foundation

/// How much of the spectrum a recording carries: the acoustic model's whole band, or only a telephone line's (nothing
/// above 4 kHz). Telephone audio is decoded by another acoustic model and decided on by its own coefficients
/// (`RecognizerConfiguration.telephoneAcousticModel`). Pure; `Sendable`.
public enum AudioBand: String, Sendable, Hashable {
    case wide
    case telephone

    /// Recordings made at this rate or lower cannot hold sound above a telephone line's band.
    static let telephoneSampleRate = 8_000

    /// The band of a decoded clip: telephone when it was recorded at 8 kHz or less, or when, resampled to 16 kHz
    /// before it reached us, its speech has no power above the telephone band (`highBandLevel`).
    public init(of clip: AudioClip) {
        if clip.source.sampleRate <= Self.telephoneSampleRate {
            self = .telephone
        } else {
            self.init(of: clip.samples, sampleRate: AudioClip.sampleRate)
        }
    }

    /// The band of samples whose recording rate is not known.
    ///
    /// Telephone when the loudest fifth of the 32 ms frames holds at least `telephoneHighBandBelow` dB less power in
    /// 4.3–7.5 kHz than in the line's 0.3–3.4 kHz. On our training clips (`make training-set`, `make human-set`) every 8
    /// kHz copy upsampled to 16 kHz measured −56 to −92 dB (median −78), clean speech −59 to +6 (a few synthetic voices
    /// carry little above 4 kHz), speech in noise higher; the bound sits below all the wideband ones.
    public init(of samples: [Int16], sampleRate: Int) {
        guard let level = Self.highBandLevel(samples, sampleRate: sampleRate) else {
            self = .wide
            return
        }
        self = level < Self.telephoneHighBandBelow ? .telephone : .wide
    }

    /// Power above the telephone band relative to the power inside it (dB) from which audio counts as wideband.
    static let telephoneHighBandBelow = -65.0

    /// The power in 4.3–7.5 kHz over the power in 0.3–3.4 kHz of the loudest fifth of `samples`' 32 ms frames, in dB;
    /// nil when there is no full frame, no sound, or the rate cannot carry 7.5 kHz.
    static func highBandLevel(_ samples: [Int16], sampleRate: Int) -> Double? {
        let frameLength = 2 * (sampleRate * 16 / 1_000)
        guard sampleRate >= 16_000, samples.count >= frameLength,
              let transform = try? RealFourierTransform(size: frameLength) else { return nil }
        let window = (0..<frameLength).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(frameLength - 1)) }
        let binHertz = Double(sampleRate) / Double(frameLength)
        let telephoneBins = Int((300 / binHertz).rounded(.up))...Int(3_400 / binHertz)
        let highBins = Int((4_300 / binHertz).rounded(.up))...Int(7_500 / binHertz)
        var frame = [Double](repeating: 0, count: frameLength)
        var spectrum = [fftw_complex](repeating: fftw_complex(0, 0), count: transform.binCount)
        var frames: [(total: Double, telephone: Double, high: Double)] = []
        for start in stride(from: 0, through: samples.count - frameLength, by: frameLength) {
            for index in 0..<frameLength { frame[index] = Double(samples[start + index]) * window[index] }
            transform.forward(&frame, into: &spectrum)
            let power = spectrum.map { $0.0 * $0.0 + $0.1 * $0.1 }
            frames.append((power.reduce(0, +), telephoneBins.reduce(0) { $0 + power[$1] }, highBins.reduce(0) { $0 + power[$1] }))
        }
        let loudest = frames.sorted { $0.total > $1.total }.prefix(max(1, frames.count / 5))
        let telephone = loudest.reduce(0) { $0 + $1.telephone }, high = loudest.reduce(0) { $0 + $1.high }
        guard telephone > 0 else { return nil }
        return 10 * log10(max(high, telephone * 1e-12) / telephone)
    }
}
