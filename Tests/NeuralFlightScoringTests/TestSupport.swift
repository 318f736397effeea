import FlightCore
import FlightStore
import Foundation
@testable import NeuralFlightScoring

/// Files of the source tree the tests read: the fetched tokenizer (`make neural-model`) and the grammar file.
enum SourceTree {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let tokenizerPath = root.appending(path: "models/whisper-tiny.en/tokenizer.json").path
    static let grammarPath = root.appending(path: "grammar/flight-query.jsgf").path

    /// Whisper tiny.en's tokenizer, loaded once.
    static let tokenizer: WhisperTokenizer = {
        do {
            return try WhisperTokenizer(contentsOf: tokenizerPath)
        } catch {
            fatalError("\(error) — the tests need the model folder that `make neural-model` fetches")
        }
    }()

    /// The grammar's shared rules, as the recognizer embeds them.
    static let grammar: String = (try? String(contentsOfFile: grammarPath, encoding: .utf8)) ?? ""
}

/// The seed day (data/flights.sql) through the SQLite store.
enum SeedDay {
    struct Day {
        let airlines: AirlineDirectory
        let flights: [FlightNumber]
    }

    static let day: Day = {
        do {
            let store = try FlightStore.inMemory()
            return Day(airlines: try store.airlineDirectory(), flights: Array(Set(try store.flightNumbers(near: Date()))).sorted())
        } catch {
            fatalError("the seed day does not load: \(error)")
        }
    }()
}
