import COpenBLAS
import Foundation

/// Which of OpenBLAS's kernels the matrix products run on.
///
/// OpenBLAS (Debian 12 ships 0.3.21, built for every x86-64 core) picks its kernels by the CPU's model number, and on
/// a model newer than its table it falls back to its oldest ones, Prescott's (SSE3): on a Xeon of family 6 model 207,
/// which has AVX-512, the neural pass then ran about 30% slower. Where that fallback happened and the kernel reports
/// AVX-512 or AVX2 with FMA (`/proc/cpuinfo`), OpenBLAS's own core selection is run again with `OPENBLAS_CORETYPE` set,
/// as if the environment had named the core before the program started. A core the environment names is left alone.
extension BLAS {
    /// The core OpenBLAS fell back to on a CPU it does not know.
    static let fallbackCore = "Prescott"

    /// The kernels the products run on ("SkylakeX", "Haswell", …), as OpenBLAS names them; chosen on first use, which
    /// sets `OPENBLAS_CORETYPE` for a moment: a program should ask before it starts other threads (`flightvoice` does).
    public static var coreName: String { chosenCore }

    private static let chosenCore: String = {
        let detected = currentCoreName()
        guard ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"] == nil,
              let better = betterCore(than: detected, cpuFlags: cpuFlags()),
              let quit = symbol("gotoblas_dynamic_quit"), let initialize = symbol("gotoblas_dynamic_init") else { return detected }
        setenv("OPENBLAS_CORETYPE", better, 1)
        quit()
        initialize()
        unsetenv("OPENBLAS_CORETYPE")
        return currentCoreName()
    }()

    /// The core to choose instead of `detected`, nil to keep it: only OpenBLAS's fallback is replaced, by the newest
    /// kernels whose instructions `cpuFlags` (the `flags` of `/proc/cpuinfo`) all has. The flags are read only then:
    /// every `flightvoice` start asks.
    static func betterCore(than detected: String, cpuFlags: @autoclosure () -> Set<String>) -> String? {
        guard detected == fallbackCore else { return nil }
        let flags = cpuFlags()
        if flags.isSuperset(of: ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]) { return "SkylakeX" }
        if flags.isSuperset(of: ["avx2", "fma"]) { return "Haswell" }
        return nil
    }

    /// The instruction-set flags the kernel reports for the first processor; empty where it cannot be read.
    static func cpuFlags() -> Set<String> {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
              let colon = line.firstIndex(of: ":") else { return [] }
        return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
    }

    private static func currentCoreName() -> String {
        openblas_get_corename().map { String(cString: $0) } ?? ""
    }

    /// A function of OpenBLAS's that its header does not declare (a build for one core lacks it).
    private static func symbol(_ name: String) -> (@convention(c) () -> Void)? {
        guard let address = dlsym(nil, name) else { return nil }  // nil: RTLD_DEFAULT, every loaded library
        return unsafeBitCast(address, to: (@convention(c) () -> Void).self)
    }
}
