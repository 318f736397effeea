import FlightCore
import Foundation
import Presenter

/// `flightvoice ask TEXT`: answers a typed query with the flight's card, JSON or a sentence to speak.
enum AskCommand: Command {
    static let name = "ask"
    static let summary = "Answer a typed query: flightvoice ask \"what's the gate for L X forty\""
    static let usage = "flightvoice ask [--json | --say] [--db PATH | --database URL] TEXT..."
    static let options: [OptionSpec] = [
        CommonOptions.json,
        .flag("--say", help: "Print one sentence meant to be spoken."),
        CommonOptions.database,
        CommonOptions.sharedDatabase,
    ]
    static let discussion = """
    TEXT is what a traveller would say or type: "L X forty", "lima x-ray four zero", "Swiss 40", "LX40".

    exit codes: 0 found · 2 not understood · 3 no such flight today (suggestions printed) · 64 usage · 74 database · 76 database server unreachable
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let text = arguments.positionals.joined(separator: " ")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError(message: "say what to look up, e.g. flightvoice ask \"L X forty\"") }
        if arguments.has("json") && arguments.has("say") { throw UsageError(message: "choose one of --json and --say") }
        let store = try DatabaseOptions.openStore(context)
        let resolver = FlightQueryResolver(normalizer: SpokenFlightNormalizer(airlines: try store.airlineDirectory()), flights: store)
        let answer = try resolver.answer(text, now: context.now)
        let options = PresentationOptions(now: context.now, isTerminal: context.console.outputIsTerminal)
        if arguments.has("json") {
            context.console.print(AnswerJSON.render(answer, pretty: true))
        } else if arguments.has("say") {
            context.console.print(SpokenAnswer.sentence(for: answer, options: options))
        } else if answer.status == .found {
            context.console.print(AnswerText.render(answer, options: options))
        } else {
            context.console.printError(AnswerText.render(answer, options: options))
        }
        return ExitCode(answer.status)
    }
}

extension ExitCode {
    /// The exit code of a single answered query.
    init(_ status: AnswerStatus) {
        switch status {
        case .found: self = .success
        case .notUnderstood, .noSpeech: self = .notUnderstood
        case .notFound: self = .notFound
        case .error: self = .dataError
        }
    }
}
