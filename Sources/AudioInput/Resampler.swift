import CSoxr

/// Streaming sample-rate converter for mono float audio, backed by libsoxr's high-quality (HQ) recipe.
///
/// Feed chunks of any size with ``process(_:)`` and call ``flush()`` once at the end of the stream to get the tail the
/// filter still holds; the output then has `round(inputCount × outputRate / inputRate)` samples, time-aligned with
/// the input (libsoxr compensates its own delay). Equal rates pass samples through untouched.
///
/// Thread rule: owns one `soxr_t`; use it from one task or thread at a time. Not `Sendable`.
public final class Resampler {
    /// Input sample rate in samples per second.
    public let inputRate: Int
    /// Output sample rate in samples per second.
    public let outputRate: Int

    private let handle: OpaquePointer?
    private let ratio: Double
    private var scratch: [Float] = []
    private var flushed = false

    /// Spare output room per `soxr_process` call, in samples, beyond the exact rate ratio.
    private static let outputSlack = 64

    /// Creates a converter from `inputRate` to `outputRate` (default 16 kHz); throws libsoxr's message on bad rates.
    public init(inputRate: Int, outputRate: Int = AudioClip.sampleRate) throws(AudioLibraryFailure) {
        guard inputRate > 0, outputRate > 0 else {
            throw AudioLibraryFailure(library: "libsoxr", operation: "soxr_create", code: 0,
                                      message: "sample rates must be positive (got \(inputRate) → \(outputRate))")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.ratio = Double(outputRate) / Double(inputRate)
        if inputRate == outputRate {
            handle = nil
            return
        }
        var error: soxr_error_t? = nil
        var ioSpec = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var qualitySpec = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let created = soxr_create(Double(inputRate), Double(outputRate), 1, &error, &ioSpec, &qualitySpec, nil)
        if let error {
            if let created { soxr_delete(created) }
            throw AudioLibraryFailure(library: "libsoxr", operation: "soxr_create", code: 0, message: String(cString: error))
        }
        guard let created else {
            throw AudioLibraryFailure(library: "libsoxr", operation: "soxr_create", code: 0, message: "no resampler returned")
        }
        handle = created
    }

    deinit {
        if let handle { soxr_delete(handle) }
    }

    /// Converts the next chunk of input samples; returns whatever output is ready (possibly fewer samples at first).
    public func process(_ chunk: [Float]) -> [Float] {
        precondition(!flushed, "Resampler.process called after flush()")
        guard let handle else { return chunk }
        guard !chunk.isEmpty else { return [] }
        return chunk.withUnsafeBufferPointer { input in run(handle, input: input) }
    }

    /// Ends the stream and returns the samples still inside the filter. Call once; the resampler is finished after it.
    public func flush() -> [Float] {
        guard !flushed else { return [] }
        flushed = true
        guard let handle else { return [] }
        return run(handle, input: nil)
    }

    /// Runs `soxr_process` until all input is consumed and no more output is pending (`input == nil` flushes).
    private func run(_ handle: OpaquePointer, input: UnsafeBufferPointer<Float>?) -> [Float] {
        let inputCount = input?.count ?? 0
        let capacity = Int((Double(max(inputCount, 1024)) * ratio).rounded(.up)) + Self.outputSlack
        if scratch.count < capacity { scratch = [Float](repeating: 0, count: capacity) }
        var output: [Float] = []
        output.reserveCapacity(Int(Double(inputCount) * ratio) + Self.outputSlack)
        var consumed = 0
        while true {
            var inputDone = 0
            var outputDone = 0
            let error: soxr_error_t? = scratch.withUnsafeMutableBufferPointer { out in
                if let input {
                    return soxr_process(handle, input.baseAddress! + consumed, inputCount - consumed, &inputDone,
                                        out.baseAddress, capacity, &outputDone)
                }
                return soxr_process(handle, nil, 0, nil, out.baseAddress, capacity, &outputDone)
            }
            // soxr_process fails only on a null or already-failed resampler, which this class never hands it.
            if let error { preconditionFailure("soxr_process failed: \(String(cString: error))") }
            output.append(contentsOf: scratch[0..<outputDone])
            consumed += inputDone
            if consumed >= inputCount && outputDone < capacity { break }
            if input == nil && outputDone == 0 { break }
        }
        return output
    }
}

/// Conversions between 16-bit integer samples and normalised floats (full scale ±1.0).
public enum SampleConversion {
    /// Converts a float sample to 16 bits, rounding and clipping to −32768…32767; NaN becomes 0.
    @inlinable
    public static func int16(_ value: Float) -> Int16 {
        guard !value.isNaN else { return 0 }
        let scaled = (value * 32768).rounded()
        if scaled >= 32767 { return .max }
        if scaled <= -32768 { return .min }
        return Int16(scaled)
    }

    /// Converts float samples to 16 bits with clipping.
    public static func int16(_ values: [Float]) -> [Int16] { values.map { int16($0) } }

    /// Converts 16-bit samples to floats in −1…1 (divides by 32768, so the round trip is exact).
    public static func float(_ values: [Int16]) -> [Float] { values.map { Float($0) / 32768 } }
}
