import CFFTW
import FFTWPlanner

/// Why FFTW could not plan a transform (it has no messages of its own, only a null plan).
public struct FFTWError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The planner call that failed.
    public var operation: String
    /// What was asked of it.
    public var message: String

    public var description: String { "FFTW \(operation) failed: \(message)" }
}

/// Owns a pair of FFTW plans of one size: real samples to their half spectrum and back; destroyed in `deinit`.
///
/// Thread rule: planning and destroying hold `FFTWPlanner`'s lock (FFTW's planner is process-wide, not thread-safe);
/// the plans are never changed after `init`, and FFTW's new-array execute functions are documented thread-safe, so one
/// value may transform on any number of threads at once, each with its own buffers. Hence `@unchecked Sendable`.
final class RealFourierTransform: @unchecked Sendable {
    /// Samples per transform.
    let size: Int
    /// Bins of the half spectrum: `size / 2 + 1`.
    var binCount: Int { size / 2 + 1 }

    private let forwardPlan: OpaquePointer
    private let inversePlan: OpaquePointer

    /// Plans transforms of `size` samples (even). `FFTW_ESTIMATE` plans the same way on every run, so results are
    /// deterministic; `FFTW_UNALIGNED` lets the execute calls take Swift arrays.
    init(size: Int) throws(FFTWError) {
        guard size >= 2, size % 2 == 0 else {
            throw FFTWError(operation: "fftw_plan_dft_r2c_1d", message: "the transform size must be even and at least 2, not \(size)")
        }
        self.size = size
        let flags = UInt32(FFTW_ESTIMATE) | UInt32(FFTW_UNALIGNED) | UInt32(FFTW_DESTROY_INPUT)
        let plans: (OpaquePointer?, OpaquePointer?) = FFTWPlanner.withLock {
            guard let real = fftw_alloc_real(size), let complex = fftw_alloc_complex(size / 2 + 1) else { return (nil, nil) }
            defer { fftw_free(real); fftw_free(complex) }
            return (fftw_plan_dft_r2c_1d(Int32(size), real, complex, flags), fftw_plan_dft_c2r_1d(Int32(size), complex, real, flags))
        }
        guard let forward = plans.0, let inverse = plans.1 else {
            FFTWPlanner.withLock {
                if let forward = plans.0 { fftw_destroy_plan(forward) }
                if let inverse = plans.1 { fftw_destroy_plan(inverse) }
            }
            throw FFTWError(operation: "fftw_plan_dft_r2c_1d", message: "no plan for \(size)-sample real transforms")
        }
        forwardPlan = forward
        inversePlan = inverse
    }

    deinit {
        FFTWPlanner.withLock {
            fftw_destroy_plan(forwardPlan)
            fftw_destroy_plan(inversePlan)
        }
    }

    /// The half spectrum of `samples` (`size` of them; overwritten) into `spectrum` (`binCount` bins).
    func forward(_ samples: inout [Double], into spectrum: inout [fftw_complex]) {
        precondition(samples.count == size && spectrum.count == binCount, "buffers must match the plan's size")
        samples.withUnsafeMutableBufferPointer { real in
            spectrum.withUnsafeMutableBufferPointer { complex in
                fftw_execute_dft_r2c(forwardPlan, real.baseAddress, complex.baseAddress)
            }
        }
    }

    /// The samples of `spectrum` (overwritten) into `samples`, scaled by `size` (FFTW does not normalise).
    func inverse(_ spectrum: inout [fftw_complex], into samples: inout [Double]) {
        precondition(samples.count == size && spectrum.count == binCount, "buffers must match the plan's size")
        samples.withUnsafeMutableBufferPointer { real in
            spectrum.withUnsafeMutableBufferPointer { complex in
                fftw_execute_dft_c2r(inversePlan, complex.baseAddress, real.baseAddress)
            }
        }
    }
}
