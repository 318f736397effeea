import Foundation

/// The coefficients of a logistic regression over standardized inputs, as `scripts/decision-model/fit-decision-model.py`
/// writes them: the grammar's `DecisionModel` and the neural check's `NeuralDecisionModel` are each one.
protocol LogisticCoefficients {
    /// The inputs' names, in order (as the script names them).
    var inputNames: [String] { get }
    /// Training mean of each input.
    var means: [Double] { get }
    /// Training standard deviation of each input (1 where it was 0).
    var scales: [Double] { get }
    /// Weight of each standardized input.
    var weights: [Double] { get }
    /// The intercept.
    var intercept: Double { get }
}

extension LogisticCoefficients {
    /// The probability, 0...1, at the raw `values` (in the order of `inputNames`), each standardized with its training
    /// mean and spread.
    func logisticProbability(_ values: [Double]) -> Double {
        var sum = intercept
        for index in weights.indices { sum += weights[index] * (values[index] - means[index]) / scales[index] }
        return 1 / (1 + exp(-sum))
    }

    /// What is wrong with coefficients read from a file that should be for the inputs `expected`, or nil; `kind` names
    /// them in the message ("neural " for the neural check's, "" for the grammar's).
    func coefficientProblem(expecting expected: [String], kind: String = "") -> String? {
        let counts = [means.count, scales.count, weights.count]
        if inputNames != expected { return "its \(kind)inputs \(inputNames) are not this recognizer's \(expected); refit it" }
        if counts.contains(where: { $0 != inputNames.count }) { return "it has \(counts) \(kind)means, scales and weights for \(inputNames.count) inputs" }
        if scales.contains(where: { !($0 > 0) }) { return "a \(kind)scale is not positive" }
        return nil
    }
}
