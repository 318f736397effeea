import AudioInput
import CFFTW
import Foundation
@testable import Recognizer
import Testing

/// Test signals and measures for the noise suppressors: deterministic white noise, SNR against the clean signal,
/// and energy in a band.
enum DenoiserSignals {
    /// Uniform white noise from a fixed linear congruential generator, RMS `level` (in sample units).
    static func whiteNoise(count: Int, rms level: Double, seed: UInt64 = 12_345) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let uniform = Double(state >> 11) / Double(1 << 53) * 2 - 1
            return uniform * level * 3.0.squareRoot()
        }
    }

    static func rms(_ samples: [Double]) -> Double {
        (samples.reduce(0) { $0 + $1 * $1 } / Double(max(1, samples.count))).squareRoot()
    }

    /// `clean` with white noise added at `snr` dB (against the clean signal's RMS over the whole clip).
    static func noisy(_ clean: [Int16], snr: Double, seed: UInt64 = 12_345) -> [Int16] {
        let signal = clean.map(Double.init)
        let noise = whiteNoise(count: clean.count, rms: rms(signal) / pow(10, snr / 20), seed: seed)
        return zip(signal, noise).map { Int16(clamping: Int(($0 + $1).rounded())) }
    }

    /// SNR (dB) of `output` against the clean reference: everything that is not the reference counts as noise.
    static func snr(of output: [Int16], reference clean: [Int16]) -> Double {
        let signal = clean.map(Double.init)
        let error = zip(output, clean).map { Double($0) - Double($1) }
        return 20 * log10(rms(signal) / rms(error))
    }

    /// Mean power above `hertz` over 512-sample frames (Hann-windowed), 16 kHz audio.
    static func powerAbove(_ hertz: Double, in samples: [Int16]) throws -> Double {
        let transform = try RealFourierTransform(size: 512)
        let firstBin = Int(hertz / 16_000 * 512)
        var total = 0.0
        var frame = [Double](repeating: 0, count: 512)
        var spectrum = [fftw_complex](repeating: (0, 0), count: transform.binCount)
        for start in stride(from: 0, through: samples.count - 512, by: 256) {
            for offset in 0..<512 { frame[offset] = Double(samples[start + offset]) * (0.5 - 0.5 * cos(2 * .pi * Double(offset) / 512)) }
            transform.forward(&frame, into: &spectrum)
            total += spectrum[firstBin...].reduce(0) { $0 + $1.0 * $1.0 + $1.1 * $1.1 }
        }
        return total
    }

    /// `samples` (16 kHz) through an 8 kHz channel: down to 8 kHz and back up, as telephone audio reaches the recognizer.
    static func telephoneBand(_ samples: [Int16]) throws -> [Int16] {
        let down = try Resampler(inputRate: 16_000, outputRate: 8_000)
        let narrow = down.process(SampleConversion.float(samples)) + down.flush()
        let up = try Resampler(inputRate: 8_000, outputRate: 16_000)
        return SampleConversion.int16(up.process(narrow) + up.flush())
    }
}

@Suite("Noise suppression before decoding")
struct DenoiserTests {
    static let suppressors: [NoiseSuppressor] = [.speex, .spectral, .webrtc]

    @Test("speech in white noise at 5 dB comes out with a better SNR", arguments: suppressors)
    func improvesSignalToNoise(_ suppressor: NoiseSuppressor) throws {
        let clean = try TestFlights.samples("lx40.wav")
        let noisy = DenoiserSignals.noisy(clean, snr: 5)
        let output = try suppressor.makePreprocessor().process(noisy, sampleRate: 16_000)
        let before = DenoiserSignals.snr(of: noisy, reference: clean)
        let after = DenoiserSignals.snr(of: output, reference: clean)
        #expect(abs(before - 5) < 0.1)
        #expect(after - before >= Self.minimumImprovement[suppressor]!, "SNR \(before) dB → \(after) dB")
    }

    /// Measured on lx40.wav in white noise at 5 dB: SpeexDSP 10.3 dB after, spectral 12.2 dB, WebRTC 10.9 dB; the
    /// bounds leave room for rounding, not for a regression.
    static let minimumImprovement: [NoiseSuppressor: Double] = [.speex: 4.5, .spectral: 6.5, .webrtc: 5]

    @Test("clean speech passes nearly unchanged", arguments: suppressors)
    func cleanSpeechIsKept(_ suppressor: NoiseSuppressor) throws {
        let clean = try TestFlights.samples("lx40.wav")
        let output = try suppressor.makePreprocessor().process(clean, sampleRate: 16_000)
        // Measured: what SpeexDSP changes lies 33 dB below the speech, WebRTC 63 dB, the spectral denoiser 78 dB.
        #expect(DenoiserSignals.snr(of: output, reference: clean) >= Self.cleanFidelity[suppressor]!)
    }

    static let cleanFidelity: [NoiseSuppressor: Double] = [.speex: 30, .spectral: 60, .webrtc: 50]

    @Test("digital silence stays silence", arguments: suppressors)
    func silenceStaysSilence(_ suppressor: NoiseSuppressor) throws {
        let silence = [Int16](repeating: 0, count: 16_000)
        #expect(try suppressor.makePreprocessor().process(silence, sampleRate: 16_000) == silence)
    }

    @Test("the clip keeps its length, whatever it is", arguments: suppressors)
    func lengthIsPreserved(_ suppressor: NoiseSuppressor) throws {
        let preprocessor = try suppressor.makePreprocessor()
        let noise = DenoiserSignals.whiteNoise(count: 16_007, rms: 1000).map { Int16(clamping: Int($0)) }
        for count in [0, 1, 159, 160, 161, 511, 513, 4_000, 16_007] {
            #expect(preprocessor.process(Array(noise.prefix(count)), sampleRate: 16_000).count == count)
        }
    }

    @Test("telephone audio gains no energy above 4 kHz", arguments: suppressors)
    func telephoneBandStaysEmpty(_ suppressor: NoiseSuppressor) throws {
        let narrow = try DenoiserSignals.telephoneBand(DenoiserSignals.noisy(try TestFlights.samples("lx40.wav"), snr: 10))
        let output = try suppressor.makePreprocessor().process(narrow, sampleRate: 16_000)
        let inputPower = try DenoiserSignals.powerAbove(4_200, in: narrow)
        let outputPower = try DenoiserSignals.powerAbove(4_200, in: output)
        let speechBand = try DenoiserSignals.powerAbove(0, in: narrow)
        // Rounding to 16 bits alone puts about 1/12 per sample in every band: that much may appear, no more.
        let rounding = Double(narrow.count) / 12 * 256
        #expect(outputPower <= inputPower + rounding, "above 4.2 kHz: \(inputPower) → \(outputPower) (whole band \(speechBand))")
    }

    @Test("the same clip gives the same samples every time, also from several threads at once", arguments: suppressors)
    func deterministic(_ suppressor: NoiseSuppressor) async throws {
        let preprocessor = try suppressor.makePreprocessor()
        let noisy = DenoiserSignals.noisy(try TestFlights.samples("lx40.wav"), snr: 10)
        let first = preprocessor.process(noisy, sampleRate: 16_000)
        let concurrent = await withTaskGroup(of: [Int16].self) { group in
            for _ in 0..<4 { group.addTask { preprocessor.process(noisy, sampleRate: 16_000) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(first != noisy)
        #expect(concurrent.allSatisfy { $0 == first })
    }

    @Test("with a gain floor of 0 dB the spectral denoiser gives the input back (overlap-add reconstructs exactly)")
    func unityGainReconstructs() throws {
        var settings = SpectralDenoiser.Settings()
        settings.gainFloorDecibels = 0
        let noisy = DenoiserSignals.noisy(try TestFlights.samples("lx40.wav"), snr: 5)
        let output = try SpectralDenoiser(settings: settings).process(noisy, sampleRate: 16_000)
        #expect(zip(output, noisy).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test("--denoise values: a name, optionally with settings; anything else says what is accepted")
    func parsesChoices() throws {
        #expect(try NoiseSuppressor(parsing: "spectral") == .spectral)
        #expect(try NoiseSuppressor(parsing: "speex:suppress=-25,prime=0") == NoiseSuppressor(kind: .speex, overrides: ["suppress": -25, "prime": 0]))
        #expect(try NoiseSuppressor(parsing: "spectral:floor=-20").makePreprocessor() is SpectralDenoiser)
        #expect(throws: NoiseSuppressorSyntaxError.self) { try NoiseSuppressor(parsing: "rnnoise") }
        #expect(throws: NoiseSuppressorSyntaxError.self) { try NoiseSuppressor(parsing: "speex:floor=-20") }
        #expect(throws: NoiseSuppressorSyntaxError.self) { try NoiseSuppressor(parsing: "spectral:floor=deep") }
    }

    @Test("settings the libraries cannot take are refused with a reason")
    func refusesBadSettings() {
        #expect(throws: SpeexDSPError.self) { try SpeexDenoiser(frameSamples: 100) }
        #expect(throws: SpeexDSPError.self) { try SpeexDenoiser(noiseSuppressDecibels: 6) }
        var odd = SpectralDenoiser.Settings()
        odd.frameSamples = 511
        #expect(throws: FFTWError.self) { try SpectralDenoiser(settings: odd) }
    }
}
