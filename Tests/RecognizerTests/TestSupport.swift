import AudioInput
import FlightCore
import Foundation
@testable import Recognizer

/// A small, fixed day built in the tests (independent of the seed): two airlines with callsigns plus two by code.
enum TestFlights {
    static let airlines = AirlineDirectory([
        Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss", spokenNames: ["swiss air"]),
        Airline(iata: "BA", icao: "BAW", name: "British Airways", callsign: "Speedbird", spokenNames: ["british"]),
        Airline(iata: "LH", icao: "DLH", name: "Lufthansa", callsign: "Lufthansa"),
        Airline(iata: "U2", icao: "EZY", name: "easyJet", callsign: "Easy", spokenNames: ["easyjet"]),
    ])
    static let flights = ["LX40", "LX1234", "BA287", "LH400", "U2812", "LX3287"].map { FlightNumber(parsing: $0)! }
    static let vocabulary = FlightVocabulary(airlines: airlines, flights: flights)

    /// The folder of the committed audio fixtures.
    static var fixtures: String { Bundle.module.resourceURL!.appendingPathComponent("Fixtures").path }

    /// Samples of a fixture, 16 kHz mono.
    static func samples(_ name: String) throws -> [Int16] { try AudioFileDecoder.decode(path: fixtures + "/" + name).samples }

    /// The fixtures manifest: file, expected flight (nil for none), text.
    static func manifest() throws -> [(file: String, flight: FlightNumber?, text: String)] {
        try String(contentsOfFile: fixtures + "/fixtures.tsv", encoding: .utf8).split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], FlightNumber(parsing: fields[1]), fields[2])
        }
    }
}

/// An async sequence of audio chunks, as a live source would deliver them.
struct ChunkSequence: AsyncSequence, Sendable {
    typealias Element = [Int16]
    let samples: [Int16]
    let chunkSize: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let samples: [Int16]
        let chunkSize: Int
        var position = 0
        mutating func next() async -> [Int16]? {
            guard position < samples.count else { return nil }
            defer { position += chunkSize }
            return Array(samples[position..<Swift.min(samples.count, position + chunkSize)])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(samples: samples, chunkSize: chunkSize) }
}
