import CVectorMath
import Foundation
import Testing

@Suite("The decoder's log-softmax, four lanes at once")
struct VectorMathTests {
    @Test("its exp is within a few ulp of libm's over the range a softmax uses, and clamps below it")
    func expMatchesLibm() {
        let x = Array(stride(from: Float(-87), to: 88, by: 0.0137))
        var fast = [Float](repeating: 0, count: x.count)
        flightvoice_exp(x, &fast, x.count)
        let worst = zip(x, fast).map { abs($1 - expf($0)) / expf($0) }.max()!
        #expect(worst < 5e-7, "worst relative error \(worst)")
        var edges = [Float](repeating: 9, count: 3)
        flightvoice_exp([0, -.infinity, -200], &edges, 3)
        #expect(edges[0] == 1 && edges[1] < 1e-37 && edges[2] < 1e-37)
    }

    @Test("log-softmax agrees with the plain loop, whole vectors and a tail", arguments: [51_864, 16, 5, 3, 1, 37])
    func logSoftmaxMatchesPlainLoop(count: Int) {
        var generator = SystemRandomNumberGenerator()
        var values = (0..<count).map { _ in Float.random(in: -30...12, using: &generator) }
        let maximum = values.max()!
        let logSum = maximum + logf(values.reduce(Float(0)) { $0 + expf($1 - maximum) })
        let expected = values.map { $0 - logSum }
        flightvoice_log_softmax(&values, count)
        #expect(zip(values, expected).allSatisfy { abs($0 - $1) < 1e-4 })
        #expect(abs(values.reduce(Float(0)) { $0 + expf($1) } - 1) < 1e-4)
    }
}

@Suite("GELU four lanes at once")
struct GELUTests {
    @Test("GELU agrees with the exact form through libm's erf", arguments: [1, 4, 7, 1_536])
    func matchesExactForm(count: Int) {
        let x = (0..<count).map { Float($0) / Float(max(1, count - 1)) * 16 - 8 }
        var fast = x
        flightvoice_gelu(&fast, count)
        let worst = zip(x, fast).map { abs($1 - 0.5 * $0 * (1 + erf($0 * Float(0.5).squareRoot()))) }.max()!
        #expect(worst < 2e-6, "worst absolute difference \(worst)")
    }
}
