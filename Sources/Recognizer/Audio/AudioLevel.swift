import Foundation

/// Loudness measures on 16-bit samples.
enum AudioLevel {
    /// Estimated signal-to-noise ratio in dB: the power of the loud frames (90th percentile of 10 ms frames) over
    /// that of the quiet ones (10th percentile). Independent of the decoder's segmentation; it underestimates when a
    /// clip holds no pause at all, which only makes the decision stricter.
    static func signalToNoiseRatio(_ levels: (noise: Double, speech: Double)?) -> Double? {
        levels.map { 10 * log10($0.speech / $0.noise) }
    }

    /// The frames worth decoding: every 100 ms window within `belowLoudest` dB of the loudest such window sounds; the
    /// quiet before the first and after the last sounding frame is kept for `edge` frames, and a quiet pause between
    /// sounding frames for `gap` frames on each side of it. Ascending, disjoint ranges; all frames when nothing is quiet
    /// or the clip is too short to have a window.
    static func keptFrames(_ powers: [Double], belowLoudest: Double, edge: Int, gap: Int) -> [Range<Int>] {
        let window = Int(windowSeconds * FlightRecognizer.framesPerSecond)
        guard powers.count >= window else { return [powers.indices] }
        var windowPowers: [Double] = []
        var sum = powers[0..<window].reduce(0, +)
        windowPowers.append(sum / Double(window))
        for end in window..<powers.count {
            sum += powers[end] - powers[end - window]
            windowPowers.append(sum / Double(window))
        }
        let floor = (windowPowers.max() ?? 0) / pow(10, belowLoudest / 10)
        var sounding: [Range<Int>] = []
        for (start, power) in windowPowers.enumerated() where power >= floor { appendMerging(start..<(start + window), to: &sounding) }
        guard !sounding.isEmpty else { return [powers.indices] }
        var kept: [Range<Int>] = []
        for (index, part) in sounding.enumerated() {
            let lower = max(0, part.lowerBound - (index == 0 ? edge : gap))
            let upper = min(powers.count, part.upperBound + (index == sounding.count - 1 ? edge : gap))
            appendMerging(lower..<upper, to: &kept)
        }
        return kept
    }

    /// Appends `range` to ascending `ranges`, joining it to the last one when they overlap or touch.
    private static func appendMerging(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        if let last = ranges.last, range.lowerBound <= last.upperBound {
            ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
        } else {
            ranges.append(range)
        }
    }

    /// `samples` amplified so that their loudest 100 ms window, now at `loudest` dBFS, reaches `level` dBFS; unchanged
    /// when it is there already, when `level` is nil, or for digital silence.
    static func raised(_ samples: [Int16], from loudest: Double, to level: Double?) -> [Int16] {
        guard let level, loudest < level, loudest > -120 else { return samples }
        let gain = pow(10, (level - loudest) / 20)
        return samples.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
    }

    /// Mean power of each frame of `samplesPerFrame` samples (a trailing partial frame is left out).
    static func framePowers(_ samples: [Int16], samplesPerFrame: Int) -> [Double] {
        (0..<samples.count / samplesPerFrame).map { frame in
            var sum = 0.0
            for sample in samples[frame * samplesPerFrame..<(frame + 1) * samplesPerFrame] { sum += Double(sample) * Double(sample) }
            return sum / Double(samplesPerFrame) + 1e-3
        }
    }

    /// The noise and speech power (the quiet and loud percentiles of the frames); nil for fewer than 10 frames.
    static func noiseAndSpeechPower(_ powers: [Double]) -> (noise: Double, speech: Double)? {
        guard powers.count >= 10 else { return nil }
        let sorted = powers.sorted()
        return (sorted[sorted.count * quietPercentile / 100], sorted[min(sorted.count - 1, sorted.count * loudPercentile / 100)])
    }

    /// Frames outside `words` (each widened by `margin` frames) as loud as speech: within `belowSpeech` dB of the speech
    /// level and at least `aboveNoise` dB over the noise. They are speech the decoder explained as silence or noise,
    /// usually a word the grammar had no place for. 0 when the clip's contrast is too low to tell speech from noise.
    static func unexplainedSpeechFrames(_ powers: [Double], levels: (noise: Double, speech: Double)?, words: [ClosedRange<Int>],
                                        margin: Int, belowSpeech: Double, aboveNoise: Double) -> Int {
        guard let (noise, speech) = levels else { return 0 }
        let floor = max(speech / pow(10, belowSpeech / 10), noise * pow(10, aboveNoise / 10))
        var explained = [Bool](repeating: false, count: powers.count)
        for word in words {
            let first = max(0, word.lowerBound - margin), last = min(powers.count - 1, word.upperBound + margin)
            if first <= last { for frame in first...last { explained[frame] = true } }
        }
        return powers.indices.filter { !explained[$0] && powers[$0] >= floor }.count
    }

    /// Percentile of frame power taken as the noise level.
    static let quietPercentile = 10
    /// Percentile of frame power taken as the speech level.
    static let loudPercentile = 90

    /// Window for the loudness measure, in seconds.
    static let windowSeconds = 0.1

    /// The RMS level of the loudest window, in dBFS (-120 for empty or digital silence).
    static func loudestWindowLevel(_ samples: [Int16], sampleRate: Int) -> Double {
        let window = max(1, Int(Double(sampleRate) * windowSeconds))
        var loudest = 0.0
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + window)
            var sum = 0.0
            for sample in samples[start..<end] { sum += Double(sample) * Double(sample) }
            loudest = max(loudest, sum / Double(end - start))
            start += window / 2
        }
        return loudest > 0 ? 10 * log10(loudest / (32768.0 * 32768.0)) : -120
    }
}

/// The frames of a clip that were decoded, in order, and where a decoded frame lies in the clip.
struct KeptFrames {
    /// Ascending, disjoint frame ranges of the clip.
    let ranges: [Range<Int>]

    init(_ ranges: [Range<Int>]) { self.ranges = ranges }

    /// The kept part of `clip`, `samplesPerFrame` to a frame; a trailing partial frame goes with the clip's last frame.
    func samples(of clip: [Int16], samplesPerFrame: Int) -> [Int16] {
        let frameCount = clip.count / samplesPerFrame
        return ranges.flatMap { frames in
            clip[frames.lowerBound * samplesPerFrame..<(frames.upperBound == frameCount ? clip.count : frames.upperBound * samplesPerFrame)]
        }
    }

    /// The clip frame that the decoded audio's `frame` came from (past the end: counted on from the last range).
    func clipFrame(_ frame: Int) -> Int {
        var remaining = frame
        for range in ranges {
            if remaining < range.count { return range.lowerBound + remaining }
            remaining -= range.count
        }
        return (ranges.last?.upperBound ?? 0) + remaining
    }
}
