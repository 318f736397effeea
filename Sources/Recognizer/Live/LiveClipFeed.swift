import Foundation

/// A recorded clip presented as a kiosk would hear it: the room's background before and after the query, so the
/// endpointer finds the start and the end itself. Used by `eval --live` and the live latency benchmark. Pure.
public struct LiveClipFeed: Sendable {
    /// Background played before the clip, in seconds (the kiosk hears the room before anyone speaks).
    public static let leadingBackgroundSeconds = 1.0
    /// Background played after the clip, in seconds: longer than the endpointer's longest trailing silence.
    public static let trailingBackgroundSeconds = 1.5
    /// The clip's edges count as background when quieter than this many dB under its loudest 10 ms frame...
    public static let backgroundBelowLoudest = 30.0
    /// ...or, in a clip whose background noise stands closer than that to its speech (airport noise mixed at 5–15 dB),
    /// within this many dB of its quietest tenth: the noise the kiosk would have heard before the traveller spoke. Fed
    /// without it, such a clip starts the endpointer on speech it has no noise floor to set it against (10 dB corpus
    /// clips that start with a word were never heard at all).
    public static let backgroundAboveQuietest = 6.0
    /// How far over its edge's median level a frame next to the words may stand and still be background. Louder frames
    /// there are a word fading in or out (an 8 kHz corpus clip's last word fades over 80 ms from −44 to −53 dB into
    /// −78 dB of silence, all 30 dB under its loudest frame): repeated as the room, they came back every 0.3 s as
    /// bursts the endpointer took for speech, so the query started in the lead ("uh u a niner…") and never ended.
    public static let edgeAboveMedian = 6.0
    /// Shortest stretch of the clip's own quiet worth repeating as background, in seconds.
    public static let shortestBackgroundSeconds = 0.1
    /// A clip whose words fill it from its first sample to its last (noise mixed over the speech alone) has no quiet
    /// edge; its background is then its quiet between words, in stretches of at least this many seconds, each less its
    /// first and last 10 ms (the fading edges of the words around it), joined. Fed without any, the endpointer meets
    /// speech with no noise floor to set it against, where a kiosk would have heard the room.
    public static let shortestGapSeconds = 0.05

    /// The audio to feed: background, the clip, background.
    public let samples: [Int16]
    /// Where the clip starts in `samples`.
    public let clipStart: Int
    /// Where the clip's last sound ends in `samples`: the end of its last 10 ms frame louder than its background (see
    /// `backgroundBelowLoudest`), the end of the last word as the audio tells it (a decode's segmentation moves with
    /// what it heard).
    public let soundEnd: Int

    /// Builds the feed from the clip's own quiet edges, less a word's fading start or end (leading if it has one, else
    /// trailing, else its quiet between words); a clip without any quiet is fed as it is.
    public init(clip: [Int16], sampleRate: Int) {
        let frame = sampleRate / 100
        let levels = stride(from: 0, to: clip.count - frame + 1, by: frame).map { Endpointer.level(of: clip[$0..<($0 + frame)]) }
        let quietest = levels.isEmpty ? -120 : levels.sorted()[levels.count / 10]
        let floor = max((levels.max() ?? -120) - Self.backgroundBelowLoudest, quietest + Self.backgroundAboveQuietest)
        let leadingFrames = levels.firstIndex { $0 >= floor } ?? 0
        let trailingFrames = levels.count - 1 - (levels.lastIndex { $0 >= floor } ?? (levels.count - 1))
        let shortest = Int(Self.shortestBackgroundSeconds * 100)
        let leadingRoom = leadingFrames - Self.fadingFrames(levels[..<leadingFrames].reversed())
        let trailingRoom = trailingFrames - Self.fadingFrames(levels[(levels.count - trailingFrames)...])
        let background: ArraySlice<Int16>
        if leadingRoom >= shortest {
            background = clip[0..<(leadingRoom * frame)]
        } else if trailingRoom >= shortest {
            background = clip[(clip.count - trailingRoom * frame)...]
        } else {
            let gaps = Self.quietStretches(levels, below: floor, shortest: Int(Self.shortestGapSeconds * 100))
                .filter { $0.lowerBound > 0 && $0.upperBound < levels.count }
                .map { ($0.lowerBound + 1)..<($0.upperBound - 1) }
            let between = gaps.flatMap { clip[($0.lowerBound * frame)..<($0.upperBound * frame)] }
            background = between.count >= shortest * frame ? between[...] : []
        }
        func repeated(_ seconds: Double) -> [Int16] {
            guard !background.isEmpty else { return [] }
            let wanted = Int(seconds * Double(sampleRate))
            var out: [Int16] = []
            while out.count < wanted { out += background.prefix(wanted - out.count) }
            return out
        }
        let leading = repeated(Self.leadingBackgroundSeconds)
        samples = leading + clip + repeated(Self.trailingBackgroundSeconds)
        clipStart = leading.count
        soundEnd = clipStart + min(clip.count, (levels.count - trailingFrames) * frame)
    }

    /// How many of an edge's frame levels, counted from the words outward, stand more than `edgeAboveMedian` over the
    /// edge's median before the first that does not: a word's fading start or end.
    private static func fadingFrames<Levels: Collection<Double>>(_ fromTheWords: Levels) -> Int {
        guard !fromTheWords.isEmpty else { return 0 }
        let median = fromTheWords.sorted()[fromTheWords.count / 2]
        return fromTheWords.prefix { $0 > median + edgeAboveMedian }.count
    }

    /// The runs of at least `shortest` consecutive frames quieter than `floor`.
    private static func quietStretches(_ levels: [Double], below floor: Double, shortest: Int) -> [Range<Int>] {
        var stretches: [Range<Int>] = []
        var start: Int?
        for (index, level) in levels.enumerated() {
            if level < floor {
                if start == nil { start = index }
            } else if let first = start {
                if index - first >= shortest { stretches.append(first..<index) }
                start = nil
            }
        }
        if let first = start, levels.count - first >= shortest { stretches.append(first..<levels.count) }
        return stretches
    }
}

extension LiveRecognizer {
    /// Feeds `feed` in chunks of `chunkSamples`, then ends the stream; returns every event.
    public func events(for feed: LiveClipFeed, chunkSamples: Int) throws -> [LiveEvent] {
        reset()
        var events: [LiveEvent] = []
        var offset = 0
        while offset < feed.samples.count {
            let end = min(feed.samples.count, offset + chunkSamples)
            events += try process(Array(feed.samples[offset..<end]))
            offset = end
        }
        return events + (try finish())
    }

    /// The first utterance heard in `feed` and the audio its answer was decoded from (`recognize` on that audio gives
    /// the same answer); nils when it heard no query at all.
    public func firstUtteranceWithAudio(for feed: LiveClipFeed, chunkSamples: Int) throws -> (LiveUtterance?, [Int16]?) {
        var decoded: [[Int16]] = []
        let previous = decodedAudio
        decodedAudio = { decoded.append($0) }
        defer { decodedAudio = previous }
        for case .final(let utterance) in try events(for: feed, chunkSamples: chunkSamples) { return (utterance, decoded.first) }
        return (nil, nil)
    }

    /// What the kiosk would answer for `feed`: the first utterance's result; nil when it heard no query at all.
    public func firstResult(for feed: LiveClipFeed, chunkSamples: Int) throws -> RecognitionResult? {
        for case .final(let utterance) in try events(for: feed, chunkSamples: chunkSamples) { return utterance.result }
        return nil
    }
}
