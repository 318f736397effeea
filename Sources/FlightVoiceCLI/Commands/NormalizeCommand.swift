import FlightCore
import Foundation
import Presenter

/// `flightvoice normalize TEXT`: the canonical flight number a query reads as, without looking it up.
enum NormalizeCommand: Command {
    static let name = "normalize"
    static let summary = "Print the canonical flight number of spoken or typed text (LX40), or why there is none"
    static let usage = "flightvoice normalize [--json] [--db PATH | --database URL] TEXT..."
    static let options: [OptionSpec] = [
        .flag("--json", help: "Print the ranked candidates with what each token was read as."),
        CommonOptions.database,
        CommonOptions.sharedDatabase,
    ]
    static let discussion = """
    The airline names and codes known are those of the database. Exit codes: 0 understood · 2 not understood · 64 usage
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let text = arguments.positionals.joined(separator: " ")
        let store = try DatabaseOptions.openStore(context)
        let normalizer = SpokenFlightNormalizer(airlines: try store.airlineDirectory())
        let outcome = normalizer.normalize(text)
        switch outcome {
        case .understood(let candidates):
            if arguments.has("json") {
                let object = JSONValue.object(["input": .string(text), "flight": .string(candidates[0].flight.canonical), "candidates": .array(candidates.map(AnswerJSON.candidateObject)), "error": .null])
                context.console.print(object.serialized(pretty: true))
            } else {
                context.console.print(candidates[0].flight.canonical)
            }
            return .success
        case .notUnderstood(let failure):
            if arguments.has("json") {
                let object = JSONValue.object(["input": .string(text), "flight": .null, "candidates": .array([]), "error": .string(failure.message)])
                context.console.print(object.serialized(pretty: true))
            }
            context.console.printError("flightvoice normalize: \(failure.message)")
            return .notUnderstood
        }
    }
}
