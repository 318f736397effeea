import CFFTW
import FFTWPlanner
import Foundation

/// Whisper's input: an 80-band log-mel spectrogram, computed as OpenAI's whisper and faster-whisper compute it.
///
/// 16 kHz samples in [-1, 1] are followed by zeros (Whisper pads its audio with 30 s of silence), reflect-padded by
/// half a window at the start, cut into 400-sample frames every 160 samples (10 ms), Hann-windowed (periodic),
/// |FFT|², projected on Slaney-style mel filters (librosa's `mel(sr=16000, n_fft=400, n_mels=80)`), then
/// log10(max(x, 1e-10)), clamped from below at the clip's maximum − 8, and mapped by (x + 4) / 4.
/// Frames past the audio are the log-mel of those zeros, exactly as in Whisper's 30 s window.
///
/// Thread rule: an immutable value; share it freely.
public struct LogMelSpectrogram: Sendable {
    /// Samples per second of the input.
    public static let sampleRate = 16_000
    /// FFT length and window length, in samples (25 ms).
    public static let fftLength = 400
    /// Hop between frames, in samples (10 ms).
    public static let hopLength = 160
    /// Mel bands.
    public static let bandCount = 80
    /// Frames in Whisper's full 30 s window (the length the model was trained on).
    public static let fullWindowFrameCount = 3000
    /// Whisper's silence padding after the audio, in samples (30 s).
    static let paddingSampleCount = 30 * sampleRate
    /// Floor of the mel power before the logarithm.
    static let powerFloor = 1e-10
    /// Dynamic range kept below the clip's loudest band, in log10 units (80 dB).
    static let dynamicRange = 8.0
    /// The final affine map (x + offset) / scale that centres the values near zero.
    static let outputOffset = 4.0, outputScale = 4.0

    /// Number of frames (10 ms each).
    public let frameCount: Int
    /// Band-major values: band `b`, frame `t` is `values[b * frameCount + t]` (Whisper's (n_mels, n_frames) layout).
    public let values: [Float]

    /// The value of band `band` at frame `frame`.
    public subscript(band: Int, frame: Int) -> Float { values[band * frameCount + frame] }

    /// The spectrogram of `samples` (16 kHz, [-1, 1]), `frameCount` frames long: frames past the audio are those of
    /// Whisper's silence padding; fewer frames than the audio cuts it (the clamp still uses the whole clip's maximum).
    public init(samples: [Float], frameCount: Int) {
        precondition(frameCount > 0, "a spectrogram needs at least one frame")
        self.frameCount = frameCount
        // Frames Whisper computes over audio + 30 s of zeros (it drops the STFT's last frame).
        let whisperFrames = (samples.count + Self.paddingSampleCount) / Self.hopLength
        // Frames whose window reaches into the audio; later ones are all silence.
        let audibleFrames = min(whisperFrames, (samples.count + Self.fftLength / 2 + Self.hopLength - 1) / Self.hopLength)
        let computed = max(frameCount, audibleFrames)
        let filters = MelFilterbank.shared
        let bins = Self.fftLength / 2 + 1
        var logMel = [Double](repeating: 0, count: computed * Self.bandCount)  // frame-major while computing
        var maximum = log10(Self.powerFloor)  // the silent frames in Whisper's padding
        let fft = RealFFT(length: Self.fftLength)
        var frame = [Double](repeating: 0, count: Self.fftLength)
        var power = [Double](repeating: 0, count: bins)
        let half = Self.fftLength / 2
        let window = MelFilterbank.hannWindow
        for t in 0..<computed {
            let start = t * Self.hopLength - half  // in the unpadded signal
            for i in 0..<Self.fftLength {
                var n = start + i
                if n < 0 { n = -n }  // numpy's "reflect" padding at the start
                frame[i] = n < samples.count ? Double(samples[n]) * window[i] : 0
            }
            fft.powerSpectrum(of: frame, into: &power)
            for band in 0..<Self.bandCount {
                var sum = 0.0
                let weights = filters.weights[band]
                for bin in weights.bins { sum += weights.values[bin - weights.bins.lowerBound] * power[bin] }
                let value = log10(max(sum, Self.powerFloor))
                logMel[t * Self.bandCount + band] = value
                if value > maximum { maximum = value }
            }
        }
        let floor = maximum - Self.dynamicRange
        let silence = Float((max(log10(Self.powerFloor), floor) + Self.outputOffset) / Self.outputScale)
        var values = [Float](repeating: silence, count: Self.bandCount * frameCount)
        for t in 0..<min(frameCount, computed) {
            for band in 0..<Self.bandCount {
                values[band * frameCount + t] = Float((max(logMel[t * Self.bandCount + band], floor) + Self.outputOffset) / Self.outputScale)
            }
        }
        self.values = values
    }

    /// Frames covering `sampleCount` samples plus `marginSeconds` of Whisper's silence, rounded up to an even count
    /// (the encoder halves it) and capped at the full 30 s window.
    public static func frameCount(forSampleCount sampleCount: Int, marginSeconds: Double = 1.0) -> Int {
        let frames = (sampleCount + hopLength - 1) / hopLength + Int((marginSeconds * Double(sampleRate) / Double(hopLength)).rounded(.up))
        return min(fullWindowFrameCount, (frames + 1) / 2 * 2)
    }
}

/// The mel filters, computed once: band `b`'s nonzero weights over FFT bins.
struct MelFilterbank: Sendable {
    struct Band: Sendable {
        let bins: Range<Int>
        let values: [Double]
    }

    static let shared = MelFilterbank(sampleRate: Double(LogMelSpectrogram.sampleRate), fftLength: LogMelSpectrogram.fftLength,
                                      bandCount: LogMelSpectrogram.bandCount)

    /// The periodic Hann window of the FFT's length (numpy's `hanning(n + 1)[:-1]`).
    static let hannWindow: [Double] = (0..<LogMelSpectrogram.fftLength).map { i in
        0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(LogMelSpectrogram.fftLength))
    }

    let weights: [Band]

    /// Slaney's mel scale (linear below 1 kHz, logarithmic above) and area normalisation, as librosa's
    /// `filters.mel(htk=False, norm="slaney")` from 0 Hz to the Nyquist frequency.
    init(sampleRate: Double, fftLength: Int, bandCount: Int) {
        let linearStep = 200.0 / 3  // Hz per mel below 1 kHz
        let logStartHz = 1000.0
        let logStartMel = logStartHz / linearStep
        let logStep = log(6.4) / 27  // natural-log step per mel above 1 kHz
        func mel(_ hz: Double) -> Double { hz < logStartHz ? hz / linearStep : logStartMel + log(hz / logStartHz) / logStep }
        func hz(_ mel: Double) -> Double { mel < logStartMel ? mel * linearStep : logStartHz * exp(logStep * (mel - logStartMel)) }
        let maximumMel = mel(sampleRate / 2)
        let edges = (0..<(bandCount + 2)).map { hz(maximumMel * Double($0) / Double(bandCount + 1)) }
        let bins = fftLength / 2 + 1
        let binHz = (0..<bins).map { Double($0) * sampleRate / Double(fftLength) }
        weights = (0..<bandCount).map { band in
            let lower = edges[band], centre = edges[band + 1], upper = edges[band + 2]
            let normalisation = 2 / (upper - lower)
            let all = binHz.map { f in max(0, min((f - lower) / (centre - lower), (upper - f) / (upper - centre))) * normalisation }
            let first = all.firstIndex { $0 > 0 } ?? 0
            let last = all.lastIndex { $0 > 0 } ?? -1
            return Band(bins: first..<(last + 1), values: last >= first ? Array(all[first...last]) : [])
        }
    }
}

/// A real FFT of fixed length on FFTW (double precision), for one thread at a time.
private final class RealFFT {
    let length: Int
    private let input: UnsafeMutablePointer<Double>
    private let output: UnsafeMutablePointer<fftw_complex>
    private let plan: fftw_plan

    init(length: Int) {
        self.length = length
        let input = fftw_alloc_real(length)!
        let output = fftw_alloc_complex(length / 2 + 1)!
        self.input = input
        self.output = output
        // FFTW_ESTIMATE plans quickly; the planner is the process's, shared with the recognizer's transforms.
        plan = FFTWPlanner.withLock { fftw_plan_dft_r2c_1d(Int32(length), input, output, UInt32(FFTW_ESTIMATE))! }
    }

    deinit {
        FFTWPlanner.withLock { fftw_destroy_plan(plan) }
        fftw_free(input)
        fftw_free(output)
    }

    /// |FFT(frame)|² for bins 0 ... length/2.
    func powerSpectrum(of frame: [Double], into power: inout [Double]) {
        frame.withUnsafeBufferPointer { input.update(from: $0.baseAddress!, count: length) }
        fftw_execute(plan)
        for bin in 0..<(length / 2 + 1) {
            let re = output[bin].0, im = output[bin].1
            power[bin] = re * re + im * im
        }
    }
}
