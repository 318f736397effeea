import FlightCore

/// Today's other flights with the best flight's number ("WK 385" beside "LX 385"), each airline in every way it is
/// named, the number and ending as the best candidate writes them (" L X three hundred eighty five." → " WK three
/// hundred eighty five.", " Edelweiss three hundred eighty five.", …). The walk's beam keeps the best partial paths of
/// each depth, so an airline whose first tokens fit poorly is dropped before its number is heard; the margin over the
/// next flight kept then overstates the lead over the flight said (an espeak-ng "edelweiss three hundred eighty five"
/// at 10 dB: LX 385 led LX 325 by 0.71 nats per token, WK 385, scored, by 0.25). Scored after the walk, they give the
/// margin its nearest rivals back. Pure; `Sendable`.
public struct SameNumberRivals: Sendable {
    private let flightsByNumber: [Int: [FlightNumber]]
    private let airlines: AirlineDirectory
    private let numberStyles: CandidateWritingOptions.NumberStyles

    public init(todaysFlights: [FlightNumber], airlines: AirlineDirectory,
                numberStyles: CandidateWritingOptions.NumberStyles = CandidateWritingOptions.standard.numberStyles) {
        flightsByNumber = Dictionary(grouping: Set(todaysFlights).sorted(), by: \.number)
        self.airlines = airlines
        self.numberStyles = numberStyles
    }

    /// The rivals of `candidate`'s flight, written as described above, "Flight" before the number where the candidate
    /// says it; none when no other flight has its number today or its text does not end in one of the number's
    /// written ways.
    public func candidates(around candidate: WrittenFlightCandidate) -> [WrittenFlightCandidate] {
        let rivals = (flightsByNumber[candidate.flight.number] ?? []).filter { $0 != candidate.flight }
        guard !rivals.isEmpty, let parts = candidate.textParts(numberStyles: numberStyles) else { return [] }
        let flightWord = " " + FlightCandidateWriter.writtenFlightWord + " "
        let saysFlightWord = parts.beforeNumber.hasSuffix(flightWord)
        let writer = FlightCandidateWriter(airlines: airlines)
        var seen = Set<String>()
        return rivals.flatMap { rival in
            writer.airlinePhrases(rival.airline).compactMap { form, airline -> WrittenFlightCandidate? in
                let text = " " + airline + (saysFlightWord ? flightWord : " ") + parts.number + parts.ending
                return seen.insert(text).inserted ? WrittenFlightCandidate(flight: rival, form: form, text: text) : nil
            }
        }
    }
}
