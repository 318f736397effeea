import CFFTW
import Foundation

/// Our own noise suppressor: a Wiener filter in the short-time Fourier domain, with the noise spectrum measured on the
/// clip's quietest frames and the a-priori SNR estimated decision-directed (Ephraim and Malah), so the gain follows
/// speech smoothly instead of flickering on noise peaks (which is heard, and decoded, as "musical noise").
///
/// Frames of `frameSamples` overlap by half, under a square-root Hann window on analysis and synthesis, so a gain of 1
/// gives the input back exactly. Every gain is at most 1, so no frequency gains energy: 8 kHz audio resampled to
/// 16 kHz keeps its empty band above 4 kHz empty. Pure and thread-safe: the FFTW plans are shared read-only.
public struct SpectralDenoiser: AudioPreprocessor {
    /// What the denoiser does; every number documented.
    public struct Settings: Sendable, Hashable {
        /// Samples per analysis frame (32 ms at 16 kHz); frames overlap by half.
        public var frameSamples: Int = 512
        /// Lowest gain, in dB: noise is attenuated by at most this much. A deeper floor removes more noise but leaves
        /// speech in isolated bins, which the decoder hears as tones.
        public var gainFloorDecibels: Double = -15
        /// Weight of the previous frame's cleaned spectrum in the a-priori SNR (decision-directed smoothing); the rest
        /// is this frame's measured excess over the noise. Near 1 is smooth and slow, lower follows onsets faster.
        public var priorSmoothing: Double = 0.98
        /// Share of the clip's frames, the quietest by energy, whose mean spectrum is taken as the noise.
        public var quietFraction: Double = 0.2
        /// Factor on the measured noise spectrum (over-subtraction): above 1 removes more, below 1 protects speech.
        public var noiseOverestimate: Double = 1

        /// The settings chosen on the training set's dev split (see docs/experiments.md, "Noise suppression").
        public init() {}
    }

    /// The settings in use.
    public let settings: Settings
    private let transform: RealFourierTransform
    private let window: [Double]

    /// Fewest whole frames inside the clip from which only those are searched for quiet (the padded edges are not).
    private static let fewestInnerFrames = 8

    /// A denoiser with `settings`; throws when FFTW cannot plan its frame size or a setting is out of range.
    public init(settings: Settings = Settings()) throws(FFTWError) {
        guard (0..<1).contains(settings.priorSmoothing), settings.quietFraction > 0, settings.quietFraction <= 1,
              settings.noiseOverestimate > 0, settings.gainFloorDecibels <= 0 else {
            throw FFTWError(operation: "SpectralDenoiser", message: "settings out of range: \(settings)")
        }
        self.settings = settings
        transform = try RealFourierTransform(size: settings.frameSamples)
        let size = settings.frameSamples
        // Periodic square-root Hann: analysis × synthesis is a Hann window, whose half-overlapped copies sum to 1.
        window = (0..<size).map { (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))).squareRoot() }
    }

    /// The samples with noise attenuated; same length and rate.
    public func process(_ samples: [Int16], sampleRate: Int) -> [Int16] {
        guard !samples.isEmpty else { return samples }
        let size = settings.frameSamples, hop = size / 2, bins = transform.binCount
        // One hop of zeros before and enough after that every sample lies under two frames.
        let frameCount = (samples.count + hop - 1) / hop + 1
        var padded = [Double](repeating: 0, count: (frameCount + 1) * hop)
        for (index, sample) in samples.enumerated() { padded[hop + index] = Double(sample) }

        var spectra = [[fftw_complex]](repeating: [], count: frameCount)
        var powers = [[Double]](repeating: [], count: frameCount)
        var frame = [Double](repeating: 0, count: size)
        for index in 0..<frameCount {
            let start = index * hop
            for offset in 0..<size { frame[offset] = padded[start + offset] * window[offset] }
            var spectrum = [fftw_complex](repeating: (0, 0), count: bins)
            transform.forward(&frame, into: &spectrum)
            powers[index] = spectrum.map { $0.0 * $0.0 + $0.1 * $0.1 }
            spectra[index] = spectrum
        }

        let noise = noiseSpectrum(powers, innerFrames: 1..<max(1, (samples.count + hop) / hop - 1))
        let floorGain = pow(10, settings.gainFloorDecibels / 20)
        let smoothing = settings.priorSmoothing
        var previousCleanPower = [Double](repeating: 0, count: bins)
        var output = [Double](repeating: 0, count: padded.count)
        for index in 0..<frameCount {
            var spectrum = spectra[index]
            for bin in 0..<bins {
                let posterior = powers[index][bin] / noise[bin]
                let measured = max(posterior - 1, 0)
                let prior = index == 0 ? measured : smoothing * previousCleanPower[bin] / noise[bin] + (1 - smoothing) * measured
                let gain = max(prior / (1 + prior), floorGain)
                previousCleanPower[bin] = gain * gain * powers[index][bin]
                spectrum[bin].0 *= gain
                spectrum[bin].1 *= gain
            }
            transform.inverse(&spectrum, into: &frame)
            let start = index * hop
            for offset in 0..<size { output[start + offset] += frame[offset] * window[offset] / Double(size) }
        }
        return (0..<samples.count).map { index in
            Int16(clamping: Int(output[hop + index].rounded()))
        }
    }

    /// The noise's power per bin: the mean over the quietest `quietFraction` of the frames inside the clip (or of all
    /// frames, for a clip too short to have enough), times `noiseOverestimate`; never zero, so digital silence divides.
    private func noiseSpectrum(_ powers: [[Double]], innerFrames: Range<Int>) -> [Double] {
        let candidates = innerFrames.count >= Self.fewestInnerFrames && innerFrames.upperBound <= powers.count
            ? Array(innerFrames) : Array(powers.indices)
        let energies = candidates.map { (frame: $0, energy: powers[$0].reduce(0, +)) }
        let quietest = energies.sorted { ($0.energy, $0.frame) < ($1.energy, $1.frame) }
            .prefix(max(1, Int((Double(candidates.count) * settings.quietFraction).rounded(.up))))
        var noise = [Double](repeating: 0, count: transform.binCount)
        for (frame, _) in quietest {
            for bin in noise.indices { noise[bin] += powers[frame][bin] }
        }
        // A power of 1e-3 in these units is a sample amplitude far below one step of 16-bit audio.
        return noise.map { max($0 / Double(quietest.count) * settings.noiseOverestimate, 1e-3) }
    }
}
