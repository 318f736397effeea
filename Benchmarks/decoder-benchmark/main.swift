// Today's-grammar pass alone on a list of clips, to compare with `pocketsphinx_batch` on the same grammar and samples
// (scripts/benchmarks/make-benchmarks.py runs both).
//
//   decoder-benchmark [--hand-thresholds] GRAMMAR_DIR LIST [HYPOTHESES]
//
// GRAMMAR_DIR holds today.jsgf and added.dict (`flightvoice recognize --write-grammar GRAMMAR_DIR`); LIST names one
// headerless 16 kHz 16-bit little-endian mono file per line (an empty list measures start-up alone). Prints the thread
// CPU seconds of loading the decoder and grammar and of decoding, and the seconds of audio; with HYPOTHESES, writes
// each clip's words there, one line per clip ("words (name)", as pocketsphinx_batch's -hyp).
import Foundation
import Recognizer

func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("decoder-benchmark: \(message)\nusage: decoder-benchmark [--hand-thresholds] GRAMMAR_DIR LIST [HYPOTHESES]\n".utf8))
    exit(64)
}

func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var arguments = Array(CommandLine.arguments.dropFirst())
var configuration = RecognizerConfiguration()
if arguments.first == "--hand-thresholds" {
    configuration.selectHandThresholds()
    arguments.removeFirst()
}
guard arguments.count == 2 || arguments.count == 3 else { usage("name the grammar folder and the list of clips") }
let folder = URL(fileURLWithPath: arguments[0])
let jsgf: String
let pronunciations: [String: String]
let paths: [String]
do {
    jsgf = try String(contentsOf: folder.appendingPathComponent("today.jsgf"), encoding: .utf8)
    var added: [String: String] = [:]
    for line in try String(contentsOf: folder.appendingPathComponent("added.dict"), encoding: .utf8).split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { usage("added.dict: '\(line)' is not a word and its phones") }
        added[String(parts[0])] = String(parts[1])
    }
    pronunciations = added
    paths = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
} catch {
    FileHandle.standardError.write(Data("decoder-benchmark: \(error.localizedDescription)\n".utf8))
    exit(66)
}

let loadStarted = threadCPUSeconds()
let pass: StandaloneGrammarPass
do {
    pass = try StandaloneGrammarPass(jsgf: jsgf, pronunciations: pronunciations, configuration: configuration)
} catch {
    FileHandle.standardError.write(Data("decoder-benchmark: \(error)\n".utf8))
    exit(69)
}
let loadSeconds = threadCPUSeconds() - loadStarted

var decodeSeconds = 0.0
var audioSeconds = 0.0
var hypotheses: [String] = []
for path in paths {
    guard let data = FileManager.default.contents(atPath: path) else { usage("cannot read \(path)") }
    let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
    audioSeconds += Double(samples.count) / Double(configuration.sampleRate)
    let started = threadCPUSeconds()
    do {
        let words = try pass.transcript(of: samples)
        decodeSeconds += threadCPUSeconds() - started
        hypotheses.append("\(words) (\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent))")
    } catch {
        FileHandle.standardError.write(Data("decoder-benchmark: \(path): \(error)\n".utf8))
        exit(70)
    }
}
if arguments.count == 3 {
    do {
        try (hypotheses.map { $0 + "\n" }.joined()).write(toFile: arguments[2], atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("decoder-benchmark: cannot write \(arguments[2]): \(error.localizedDescription)\n".utf8))
        exit(74)
    }
}
print(String(format: "load: %.3f s CPU; decode: %.3f s CPU for %.1f s of audio in %d clips (%.3f s per audio s)",
             loadSeconds, decodeSeconds, audioSeconds, paths.count, audioSeconds > 0 ? decodeSeconds / audioSeconds : 0))
