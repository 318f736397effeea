import Foundation
import FlightCore
@testable import Recognizer
import Testing

/// Prints per-clip figures for a manifest when FLIGHTVOICE_DEV_MANIFEST is set (a development aid, skipped otherwise).
@Test(.enabled(if: ProcessInfo.processInfo.environment["FLIGHTVOICE_DEV_MANIFEST"] != nil))
func devExperiment() throws {
    let env = ProcessInfo.processInfo.environment
    let airlines = try String(contentsOfFile: env["FLIGHTVOICE_DEV_AIRLINES"]!, encoding: .utf8).split(separator: "\n").map { line in
        let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return Airline(iata: f[0], icao: f[1], name: f[2], callsign: f[3], spokenNames: f[4].split(separator: "|").map(String.init))
    }
    let flights = try String(contentsOfFile: env["FLIGHTVOICE_DEV_FLIGHTS"]!, encoding: .utf8).split(separator: "\n").compactMap { FlightNumber(parsing: String($0)) }
    var configuration = RecognizerConfiguration()
    if env["NARROW"] != nil { configuration.beam = 1e-48; configuration.phoneBeam = 1e-48; configuration.wordBeam = 7e-29 }
    if let floor = env["FLOOR"].flatMap(Double.init) { configuration.noiseFloorLevel = floor < -200 ? nil : floor }
    if let lw = env["LW"].flatMap(Double.init) { configuration.languageWeight = lw }
    if let wip = env["WIP"].flatMap(Double.init) { configuration.wordInsertionPenalty = wip }
    let recognizer = try FlightRecognizer(vocabulary: FlightVocabulary(airlines: AirlineDirectory(airlines), flights: flights), configuration: configuration)
    let manifest = env["FLIGHTVOICE_DEV_MANIFEST"]!
    let folder = (manifest as NSString).deletingLastPathComponent
    let rows = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").dropFirst()
    let limit = Int(env["FLIGHTVOICE_DEV_LIMIT"] ?? "100000")!
    for row in rows.prefix(limit) {
        let f = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let samples = try WAVReader.samples(path: folder + "/" + f[0])
        let r = try recognizer.recognize(samples: samples)
        let ratio = r.logLikelihoodRatio.map { String(format: "%.1f", $0) } ?? "-"
        let word = r.lowestWordRatio.map { String(format: "%.1f", $0) } ?? "-"
        let kind = f.count > 6 ? f[6] : f[5]
        print("DEV\t\(f[1])\t\(r.grammarFlights.first?.canonical ?? "")\t\(ratio)\t\(r.decision)\t\(f[4])\t\(kind)\t\(r.transcript.text)\t\(String(format: "%.2f", r.decodeSeconds))\t\(word)\t\(String(format: "%.1f", recognizer.lastPhoneLoopScorePerFrame))\t\(r.speechFrames)\t\(r.audioDuration)\t\(r.openGrammarFlight?.canonical ?? "")\t\(recognizer.lastOpenHypothesis)")
    }
}

@Test(.enabled(if: ProcessInfo.processInfo.environment["FLIGHTVOICE_DEV_GRAMMAR"] != nil))
func devGrammar() throws {
    print(FlightGrammar(vocabulary: FlightGrammarTests.tiny).jsgf)
}

@Test(.enabled(if: ProcessInfo.processInfo.environment["FLIGHTVOICE_DEV_CLIP"] != nil))
func devClip() throws {
    let env = ProcessInfo.processInfo.environment
    let airlines = AirlineDirectory([Airline(iata: "KL", icao: "KLM", name: "KLM", callsign: "KLM", spokenNames: [])])
    let flights = env["FLIGHTVOICE_DEV_CLIP_FLIGHTS"]!.split(separator: ",").compactMap { FlightNumber(parsing: String($0)) }
    var configuration = RecognizerConfiguration()
    if env["WIDE"] == nil { configuration.beam = 1e-48; configuration.phoneBeam = 1e-48; configuration.wordBeam = 7e-29 }
    let recognizer = try FlightRecognizer(vocabulary: FlightVocabulary(airlines: airlines, flights: flights), configuration: configuration)
    let samples = try WAVReader.samples(path: env["FLIGHTVOICE_DEV_CLIP"]!)
    print("samples", samples.count, samples.prefix(20).map { $0 })
    let r = try recognizer.recognize(samples: samples)
    print(r.transcript.text, r.logLikelihoodRatio ?? 0)
    for w in r.transcript.words { print(w) }
    for s in recognizer.debugSegments() { print(s) }
}

@Test(.enabled(if: ProcessInfo.processInfo.environment["FLIGHTVOICE_DEV_LM"] != nil))
func devLM() throws {
    let env = ProcessInfo.processInfo.environment
    let c = RecognizerConfiguration()
    let d = try PocketSphinxDecoder(arguments: c.commonArguments + [("-lm", "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin")], verbose: false)
    let samples = try WAVReader.samples(path: env["FLIGHTVOICE_DEV_LM"]!)
    try d.startUtterance()
    try samples.withUnsafeBufferPointer { try d.process($0, wholeUtterance: true) }
    try d.endUtterance()
    print("LM:", d.hypothesis()?.text ?? "-")
}
