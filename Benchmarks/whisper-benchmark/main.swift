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
print("clip: \(options.clip), \(String(format: "%.2f", Double(samples.count) / 16000)) s; BLAS threads: \(options.threads), kernels: \(BLAS.coreName); best of \(options.repeats)")
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
for batch in [1, 2, 4, 16, 64] {
    let states = [WhisperDecoderState](repeating: parent.states[0], count: batch)
    let tokens = (0..<batch).map { 13 + $0 }
    let milliseconds = bestMilliseconds(options.repeats) { _ = model.step(utteranceEncoding, states: states, tokens: tokens) }
    print("decoder step, batch \(batch): \(format(milliseconds)) ms CPU (\(String(format: "%.2f", milliseconds / Double(batch))) ms per hypothesis)")
}
// Scoring whole candidates in one pass: 64 sequences of 6 tokens forked from the start sequence.
let start = model.feed(utteranceEncoding, tokens: WhisperTokens.startSequence)
let candidates = (0..<64).map { index in [41578, 1395, 12, 2433, 2319, 13].map { $0 + (index == 0 ? 0 : index % 3) } }
let scoring = bestMilliseconds(options.repeats) {
    _ = model.feed(utteranceEncoding, states: [WhisperDecoderState](repeating: start.states[0], count: candidates.count), sequences: candidates)
}
print("one-pass scoring of 64 candidates × 6 tokens (every position): \(format(scoring)) ms CPU (\(String(format: "%.2f", scoring / 64)) ms per candidate)")

var greedyUtterance: [Int] = [], greedyFull: [Int] = []
print("greedy decode, clip + 1 s window: \(format(bestMilliseconds(1) { greedyUtterance = model.greedyTokens(utteranceEncoding) })) ms CPU, tokens \(greedyUtterance)")
print("greedy decode, 30 s window: \(format(bestMilliseconds(1) { greedyFull = model.greedyTokens(fullEncoding) })) ms CPU, tokens \(greedyFull)")

// The window's margin of silence after the clip against the 30 s window's scores and transcript.
for margin in [0.5, 1, 2, 5, 10] {
    let frames = LogMelSpectrogram.frameCount(forSampleCount: samples.count, marginSeconds: margin)
    let mel = LogMelSpectrogram(samples: samples, frameCount: frames)
    var encoding = model.encode(mel)
    let encoderMilliseconds = bestMilliseconds(1) { encoding = model.encode(mel) }
    var short = model.feed(encoding, tokens: WhisperTokens.startSequence)
    var full = model.feed(fullEncoding, tokens: WhisperTokens.startSequence)
    var worstToken: Float = 0, total: Float = 0
    for token in greedyFull + [WhisperTokens.endOfText] {
        let difference = short.logProbability(of: token, hypothesis: 0) - full.logProbability(of: token, hypothesis: 0)
        worstToken = max(worstToken, abs(difference))
        total += difference
        if token == WhisperTokens.endOfText { break }
        short = model.step(encoding, states: short.states, tokens: [token])
        full = model.step(fullEncoding, states: full.states, tokens: [token])
    }
    let greedy = model.greedyTokens(encoding)
    print("margin \(margin) s (\(frames) frames): encoder \(format(encoderMilliseconds)) ms CPU; 30 s transcript's log-prob moves by at most \(String(format: "%.3f", worstToken)) per token, \(String(format: "%+.3f", total)) in all; greedy \(greedy == greedyFull ? "same as 30 s" : "\(greedy)")")
}
print("peak RSS: \(format(peakResidentMegabytes())) MB")
