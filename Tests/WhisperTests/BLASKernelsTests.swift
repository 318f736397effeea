import Testing
@testable import Whisper

@Suite("OpenBLAS's kernels")
struct BLASKernelsTests {
    static let avx512: Set<String> = ["sse3", "avx", "avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]

    @Test("its fallback for a CPU it does not know is replaced by the newest kernels the CPU can run", arguments: [
        ("Prescott", avx512, "SkylakeX"), ("Prescott", ["sse3", "avx", "avx2", "fma"], "Haswell"),
        ("Prescott", ["sse3", "avx", "avx2", "avx512f"], nil), ("Prescott", ["sse3", "avx"], nil), ("Prescott", [], nil),
    ] as [(String, Set<String>, String?)])
    func replacesTheFallback(detected: String, flags: Set<String>, chosen: String?) {
        #expect(BLAS.betterCore(than: detected, cpuFlags: flags) == chosen)
    }

    @Test("a core it knows is kept", arguments: ["Haswell", "SkylakeX", "Zen", "Cooperlake", "Sandybridge"])
    func keepsAKnownCore(detected: String) {
        #expect(BLAS.betterCore(than: detected, cpuFlags: Self.avx512) == nil)
    }

    @Test("on this machine the products run on kernels for its instructions, not the fallback")
    func thisMachine() {
        let flags = BLAS.cpuFlags()
        #expect(flags.contains("sse2"), "/proc/cpuinfo has no flags line")
        #expect(!BLAS.coreName.isEmpty)
        if flags.isSuperset(of: ["avx2", "fma"]) { #expect(BLAS.coreName != BLAS.fallbackCore) }
    }
}
