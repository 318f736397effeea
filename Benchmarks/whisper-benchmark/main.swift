// Whisper tiny.en in-process: model load, log-mel, encoder (utterance window vs 30 s) and decoder steps by batch size.
//   swift build -c release --product whisper-benchmark
//   .build/release/whisper-benchmark [--model models/whisper-tiny.en] [--threads 1] [--repeat 5] CLIP.wav
// Times are CPU seconds of this process (one BLAS thread by default) except the load, which is wall time too.
import AudioInput
import Foundation
import Whisper

struct Options {
    var model = "models/whisper-tiny.en"
    var threads = 1
    var repeats = 5
    var clip = ""
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let next = arguments.popFirst() else { usage("\(flag) needs a value") }
        return next
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--model": options.model = value(argument)
        case "--threads": options.threads = Int(value(argument)) ?? 0
        case "--repeat": options.repeats = Int(value(argument)) ?? 0
        case "-h", "--help": usage(nil)
        default: options.clip = argument
        }
    }
    if options.clip.isEmpty { usage("give a clip") }
    if options.threads < 1 || options.repeats < 1 { usage("--threads and --repeat take positive whole numbers") }
    return options
}

func usage(_ problem: String?) -> Never {
    if let problem { FileHandle.standardError.write(Data("whisper-benchmark: \(problem)\n".utf8)) }
    print("usage: whisper-benchmark [--model DIR] [--threads N] [--repeat N] CLIP.wav")
    exit(problem == nil ? 0 : 64)
}

/// CPU seconds used by this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func wallSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Peak resident memory in MB.
func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// The best CPU time of `repeats` runs, in milliseconds (the least disturbed by other work on a shared machine).
func bestMilliseconds(_ repeats: Int, _ work: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<repeats {
        let start = cpuSeconds()
        work()
        best = min(best, cpuSeconds() - start)
    }
    return best * 1000
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }

let options = parseOptions()
let samples: [Float]
do {
    samples = try AudioFileDecoder.decode(path: options.clip).samples.map { Float($0) / 32768 }
} catch {
    FileHandle.standardError.write(Data("whisper-benchmark: \(error)\n".utf8))
    exit(66)
}

let loadWall = wallSeconds(), loadCPU = cpuSeconds()
let model: WhisperModel
do {
    model = try WhisperModel(folder: URL(fileURLWithPath: options.model), blasThreadCount: options.threads)
} catch {
    FileHandle.standardError.write(Data("whisper-benchmark: \(error)\n".utf8))
    exit(66)
}
print("clip: \(options.clip), \(String(format: "%.2f", Double(samples.count) / 16000)) s; BLAS threads: \(options.threads); best of \(options.repeats)")
print("model load: \(format((wallSeconds() - loadWall) * 1000)) ms wall, \(format((cpuSeconds() - loadCPU) * 1000)) ms CPU")

let utteranceFrames = LogMelSpectrogram.frameCount(forSampleCount: samples.count)
var utteranceMel = LogMelSpectrogram(samples: samples, frameCount: utteranceFrames)
var fullMel = utteranceMel
print("log-mel, \(utteranceFrames) frames (clip + 1 s): \(format(bestMilliseconds(options.repeats) { utteranceMel = LogMelSpectrogram(samples: samples, frameCount: utteranceFrames) })) ms")
print("log-mel, 3000 frames (30 s window): \(format(bestMilliseconds(options.repeats) { fullMel = LogMelSpectrogram(samples: samples, frameCount: LogMelSpectrogram.fullWindowFrameCount) })) ms")

var utteranceEncoding = model.encode(utteranceMel)
var fullEncoding = utteranceEncoding
print("encoder, \(utteranceFrames) frames: \(format(bestMilliseconds(options.repeats) { utteranceEncoding = model.encode(utteranceMel) })) ms CPU")
print("encoder, 3000 frames: \(format(bestMilliseconds(max(1, options.repeats / 2)) { fullEncoding = model.encode(fullMel) })) ms CPU")

// Decoder steps: hypotheses forked from one parent a few tokens into a transcript, one step for the whole batch.
let prefix = WhisperTokens.startSequence + [44988, 2319]  // " LX 40"
let parent = model.feed(utteranceEncoding, tokens: prefix)
for batch in [1, 16, 64] {
    let states = [WhisperDecoderState](repeating: parent.states[0], count: batch)
    let tokens = (0..<batch).map { 13 + $0 }
    let milliseconds = bestMilliseconds(options.repeats) { _ = model.step(utteranceEncoding, states: states, tokens: tokens) }
    print("decoder step, batch \(batch): \(format(milliseconds)) ms CPU (\(String(format: "%.2f", milliseconds / Double(batch))) ms per hypothesis)")
}
var greedyUtterance: [Int] = [], greedyFull: [Int] = []
print("greedy decode, clip + 1 s window: \(format(bestMilliseconds(1) { greedyUtterance = model.greedyTokens(utteranceEncoding) })) ms CPU, tokens \(greedyUtterance)")
print("greedy decode, 30 s window: \(format(bestMilliseconds(1) { greedyFull = model.greedyTokens(fullEncoding) })) ms CPU, tokens \(greedyFull)")

// How far the short window moves the scores of the full window's own transcript.
var worst: Float = 0
var stepShort = model.feed(utteranceEncoding, tokens: WhisperTokens.startSequence)
var stepFull = model.feed(fullEncoding, tokens: WhisperTokens.startSequence)
for token in greedyFull + [WhisperTokens.endOfText] {
    worst = max(worst, abs(stepShort.logProbability(of: token, hypothesis: 0) - stepFull.logProbability(of: token, hypothesis: 0)))
    if token == WhisperTokens.endOfText { break }
    stepShort = model.step(utteranceEncoding, states: stepShort.states, tokens: [token])
    stepFull = model.step(fullEncoding, states: stepFull.states, tokens: [token])
}
print("short vs 30 s window: largest per-token log-prob difference on the 30 s transcript \(String(format: "%.3f", worst)) nats")
print("peak RSS: \(format(peakResidentMegabytes())) MB")
