import FlightCore

/// Flights that do not fly today but sound like one that does: the same airline with a number one digit away (one
/// digit changed, dropped, added, or two neighbouring digits swapped), or the same number with an airline whose code
/// differs in one letter ("L H four hundred" while only LX 400 flies). Scoring only today's flights, the neural model
/// ranks today's nearest flight first when a traveller asks for one of these ("J U thirty forty one" → JU 341, "I B
/// seven four five eight" → IB 7468: all six wrong answers the neural check added on the held-out voices of
/// 2026-12-03). Scored against the best candidate, in its own words, they tell whether the flight heard is today's.
/// Pure; `Sendable`.
public struct OffListNeighbours: Sendable {
    /// The longest flight number written (IATA flight numbers have at most four digits).
    public static let maximumDigits = 4

    private let todaysFlights: Set<FlightNumber>
    private let airlines: AirlineDirectory
    private let numberStyles: CandidateWritingOptions.NumberStyles

    /// Neighbours of `todaysFlights` among the airlines of `airlines`, each number written in its digits and the ways
    /// of `numberStyles`.
    public init(todaysFlights: [FlightNumber], airlines: AirlineDirectory,
                numberStyles: CandidateWritingOptions.NumberStyles = CandidateWritingOptions.standard.numberStyles) {
        self.todaysFlights = Set(todaysFlights)
        self.airlines = airlines
        self.numberStyles = numberStyles
    }

    /// The off-list neighbours of `candidate`'s flight, written as it is: its words with the number replaced by each
    /// neighbouring number, in every written way of a number (" Juliet Uniform 341." → " Juliet Uniform 3041.",
    /// " Juliet Uniform 3 0 4 1.", …); and, where it names the airline by its code (as a word, spelled or in NATO words),
    /// each airline one letter away with the same number, in the same form (" Lima X-ray 400." → " Lima Hotel 400.",
    /// " LX Flight 400." → " LH Flight 400.").
    /// None flies today. No number neighbours when the text does not end in one of its number's written forms.
    public func candidates(around candidate: WrittenFlightCandidate) -> [WrittenFlightCandidate] {
        numberNeighbours(of: candidate) + airlineNeighbours(of: candidate)
    }

    private func numberNeighbours(of candidate: WrittenFlightCandidate) -> [WrittenFlightCandidate] {
        let flight = candidate.flight
        guard let parts = candidate.textParts(numberStyles: numberStyles) else { return [] }
        return Self.neighbouringNumbers(of: flight.number)
            .compactMap { FlightNumber(airline: flight.airline, number: $0) }
            .filter { !todaysFlights.contains($0) }
            .flatMap { neighbour in
                FlightCandidateWriter.writtenNumbers(neighbour.number, styles: numberStyles).map {
                    WrittenFlightCandidate(flight: neighbour, form: candidate.form, text: parts.beforeNumber + $0 + parts.ending)
                }
            }
    }

    private func airlineNeighbours(of candidate: WrittenFlightCandidate) -> [WrittenFlightCandidate] {
        guard [.code, .spelledCode, .natoCode].contains(candidate.form) else { return [] }
        let code = Array(candidate.flight.airline)
        let flights = airlines.airlines.map(\.iata)
            .filter { other in other.count == code.count && zip(other, code).filter { $0 != $1 }.count == 1 }
            .compactMap { FlightNumber(airline: $0, number: candidate.flight.number) }
            .filter { !todaysFlights.contains($0) }
        let flightWord = " " + FlightCandidateWriter.writtenFlightWord + " "
        let saysFlightWord = candidate.text.contains(flightWord)
        let options = CandidateWritingOptions(forms: [candidate.form], numberStyles: numberStyles,
                                              carriers: [CarrierPhrase(before: "", ending: candidate.endPunctuation)])
        return FlightCandidateWriter(airlines: airlines, options: options).candidates(for: flights.sorted())
            .filter { $0.text.contains(flightWord) == saysFlightWord }
    }

    /// The numbers from 1 to 9999, other than `number`, one edit from its digits: a digit changed, dropped or added,
    /// or two neighbouring digits swapped; none starts with 0. Ascending.
    public static func neighbouringNumbers(of number: Int) -> [Int] {
        let digits = Array(String(number))
        let allDigits = Array("0123456789")
        var spellings: [[Character]] = []
        for position in digits.indices {
            for digit in allDigits where digit != digits[position] {
                var changed = digits
                changed[position] = digit
                spellings.append(changed)
            }
            var dropped = digits
            dropped.remove(at: position)
            spellings.append(dropped)
            if position + 1 < digits.count {
                spellings.append(digits[..<position] + [digits[position + 1], digits[position]] + digits[(position + 2)...])
            }
        }
        for position in 0...digits.count {
            for digit in allDigits {
                var added = digits
                added.insert(digit, at: position)
                spellings.append(added)
            }
        }
        let numbers = spellings.compactMap { spelling -> Int? in
            guard let first = spelling.first, first != "0", spelling.count <= maximumDigits else { return nil }
            return Int(String(spelling))
        }
        return Set(numbers).subtracting([number]).sorted()
    }
}
