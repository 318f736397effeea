import Foundation
import PackagePlugin

/// Embeds the package's data files into the targets that need them, so the built binary runs from any folder.
@main
struct EmbedResources: BuildToolPlugin {
    /// Swift constant name → file path relative to the package, per target.
    static let embeddedFiles: [String: [(name: String, path: String)]] = [
        "FlightStore": [("embeddedSeedSQL", "data/flights.sql")],
        "Recognizer": [("embeddedQueryGrammar", "grammar/flight-query.jsgf")],
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let files = Self.embeddedFiles[target.name] else { return [] }
        let inputs = files.map { context.package.directoryURL.appending(path: $0.path) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        let assignments = zip(files, inputs).map { "\($0.name)=\($1.path)" }
        return [
            .buildCommand(
                displayName: "Embedding \(files.map(\.path).joined(separator: ", ")) in \(target.name)",
                executable: try context.tool(named: "embed-resources").url,
                arguments: [output.path] + assignments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
