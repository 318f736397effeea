import Foundation
@testable import AudioInput

/// Locates the committed fixtures and their expected durations.
enum Fixtures {
    /// Absolute path of the fixture folder copied into the test bundle.
    static let directory: String = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    /// Absolute path of one fixture.
    static func path(_ name: String) -> String { directory + "/" + name }

    /// The bytes of one fixture.
    static func bytes(_ name: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path(name))!) }

    /// Expected decoded durations in seconds, from expected.tsv (written by make-fixtures.sh).
    static let expectedDurations: [String: Double] = {
        let text = try! String(contentsOfFile: path("expected.tsv"), encoding: .utf8)
        var durations: [String: Double] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t")
            durations[String(fields[0])] = Double(fields[1])!
        }
        return durations
    }()
}

/// Measurements on 16 kHz clips.
enum Signal {
    /// Root-mean-square level as a fraction of full scale.
    static func rms(_ samples: some Collection<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot() / 32768
    }

    /// RMS per 20 ms frame (320 samples at 16 kHz).
    static func envelope(_ samples: [Int16], frameLength: Int = 320) -> [Double] {
        stride(from: 0, to: samples.count - frameLength + 1, by: frameLength).map { rms(samples[$0..<$0 + frameLength]) }
    }

    /// Best Pearson correlation of two envelopes over lags of up to `maxLag` frames either way.
    static func bestCorrelation(_ a: [Double], _ b: [Double], maxLag: Int = 3) -> Double {
        (-maxLag...maxLag).map { lag in
            let pairs = a.indices.compactMap { index -> (Double, Double)? in
                let other = index + lag
                return b.indices.contains(other) ? (a[index], b[other]) : nil
            }
            return pearson(pairs)
        }.max()!
    }

    private static func pearson(_ pairs: [(Double, Double)]) -> Double {
        let count = Double(pairs.count)
        let meanA = pairs.reduce(0) { $0 + $1.0 } / count
        let meanB = pairs.reduce(0) { $0 + $1.1 } / count
        var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
        for (a, b) in pairs {
            covariance += (a - meanA) * (b - meanB)
            varianceA += (a - meanA) * (a - meanA)
            varianceB += (b - meanB) * (b - meanB)
        }
        return covariance / (varianceA * varianceB).squareRoot()
    }

    /// Number of sign changes (zero crossings) in a float signal.
    static func zeroCrossings(_ samples: [Float]) -> Int {
        zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }

    /// A sine wave at `frequency` Hz sampled at `rate`, amplitude `amplitude` (full scale 1).
    static func sine(frequency: Double, rate: Int, seconds: Double, amplitude: Double = 0.5) -> [Float] {
        (0..<Int(Double(rate) * seconds)).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }
}

/// Builds WAV files in memory for tests that need exact or large inputs.
enum WAVBytes {
    /// A canonical PCM WAV of interleaved 16-bit samples.
    static func int16(_ interleaved: [Int16], rate: Int, channels: Int = 1, dataSizeOverride: UInt32? = nil) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(interleaved.count * 2)
        for sample in interleaved {
            let bits = UInt16(bitPattern: sample)
            payload.append(UInt8(bits & 0xFF))
            payload.append(UInt8(bits >> 8))
        }
        return make(formatTag: 1, bitsPerSample: 16, rate: rate, channels: channels, payload: payload,
                    dataSizeOverride: dataSizeOverride)
    }

    /// An IEEE-float WAV of interleaved 32-bit samples.
    static func float32(_ interleaved: [Float], rate: Int, channels: Int = 1) -> [UInt8] {
        var payload: [UInt8] = []
        for sample in interleaved { payload += littleEndian(sample.bitPattern) }
        return make(formatTag: 3, bitsPerSample: 32, rate: rate, channels: channels, payload: payload)
    }

    private static func make(formatTag: UInt16, bitsPerSample: UInt16, rate: Int, channels: Int, payload: [UInt8],
                             dataSizeOverride: UInt32? = nil) -> [UInt8] {
        let blockAlign = UInt16(channels) * bitsPerSample / 8
        var bytes: [UInt8] = Array("RIFF".utf8) + littleEndian(UInt32(36 + payload.count)) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + littleEndian(UInt32(16)) + littleEndian(formatTag) + littleEndian(UInt16(channels))
        bytes += littleEndian(UInt32(rate)) + littleEndian(UInt32(rate) * UInt32(blockAlign)) + littleEndian(blockAlign)
        bytes += littleEndian(bitsPerSample)
        bytes += Array("data".utf8) + littleEndian(dataSizeOverride ?? UInt32(payload.count)) + payload
        return bytes
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
