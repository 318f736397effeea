// CPU cost of each noise suppressor per second of audio, on the clips given.
//
//   denoise-benchmark [--repeat N] [--denoise NAME[:KEY=VALUE,...]]... CLIP_OR_MANIFEST...
//
// Every clip (a WAV or other audio file, or a manifest .tsv whose `path` column lists clips) is decoded to 16 kHz once;
// then each suppressor (by default none, speex, spectral and webrtc at their chosen settings) processes all of them N times
// (default 3) after one untimed pass. Prints the thread CPU time per second of audio: user + system time of the one
// thread doing the work (CLOCK_THREAD_CPUTIME_ID), so other load on the machine inflates it little.
import AudioInput
import Foundation
import Recognizer

var arguments = Array(CommandLine.arguments.dropFirst())
var repeats = 3
var suppressors: [NoiseSuppressor] = []
var inputs: [String] = []
func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("denoise-benchmark: \(message)\nusage: denoise-benchmark [--repeat N] [--denoise NAME[:KEY=VALUE,...]]... CLIP_OR_MANIFEST...\n".utf8))
    exit(64)
}
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--repeat":
        guard let text = arguments.first, let value = Int(text), value > 0 else { usage("--repeat takes a positive whole number") }
        repeats = value
        arguments.removeFirst()
    case "--denoise":
        guard let text = arguments.first else { usage("--denoise takes a suppressor") }
        do { suppressors.append(try NoiseSuppressor(parsing: text)) } catch { usage(error.message) }
        arguments.removeFirst()
    default:
        if argument.hasPrefix("-") { usage("unknown option \(argument)") }
        inputs.append(argument)
    }
}
if inputs.isEmpty { usage("name the clips or manifests to process") }
if suppressors.isEmpty { suppressors = [.none, .speex, .spectral, .webrtc] }

/// The clip paths a command-line input names: itself, or a manifest's `path` column resolved beside it.
func clipPaths(_ input: String) throws -> [String] {
    guard input.hasSuffix(".tsv") else { return [input] }
    let lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n")
    guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false),
          let column = header.firstIndex(of: "path") else { usage("\(input) has no path column") }
    let folder = (input as NSString).deletingLastPathComponent
    return lines.dropFirst().map { line in
        let path = String(line.split(separator: "\t", omittingEmptySubsequences: false)[column])
        return path.hasPrefix("/") ? path : folder + "/" + path
    }
}

func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var clips: [[Int16]] = []
do {
    for input in inputs {
        for path in try clipPaths(input) { clips.append(try AudioFileDecoder.decode(path: path).samples) }
    }
} catch {
    FileHandle.standardError.write(Data("denoise-benchmark: \(error)\n".utf8))
    exit(66)
}
let audioSeconds = Double(clips.reduce(0) { $0 + $1.count }) / Double(AudioClip.sampleRate)
print("\(clips.count) clips, \(String(format: "%.1f", audioSeconds)) s of audio, \(repeats) timed passes each")
print("suppressor".padding(toLength: 40, withPad: " ", startingAt: 0) + "  CPU s per audio s   × faster than real time")
for suppressor in suppressors {
    let preprocessor: any AudioPreprocessor
    do { preprocessor = try suppressor.makePreprocessor() } catch { usage("\(suppressor): \(error)") }
    var checksum = 0
    for clip in clips { checksum &+= preprocessor.process(clip, sampleRate: AudioClip.sampleRate).count }
    let start = threadCPUSeconds()
    for _ in 0..<repeats {
        for clip in clips { checksum &+= preprocessor.process(clip, sampleRate: AudioClip.sampleRate).count }
    }
    let perAudioSecond = (threadCPUSeconds() - start) / (audioSeconds * Double(repeats))
    precondition(checksum == clips.reduce(0) { $0 + $1.count } * (repeats + 1), "a suppressor changed a clip's length")
    let speedUp = perAudioSecond > 1e-6 ? String(format: "%.0f", 1 / perAudioSecond) : "(nothing to measure)"
    print(suppressor.description.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "  %.5f            ", perAudioSecond) + speedUp)
}
