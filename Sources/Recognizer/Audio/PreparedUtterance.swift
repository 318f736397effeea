import Foundation

/// One clip made ready for the decoding passes: offset removed, preprocessed, a quiet recording raised to a normal
/// level, a faint noise floor added, and long quiet stretches shortened. Pure value; `Sendable`.
///
/// Why the quiet is shortened: the decoder normalizes the cepstra by their mean over the whole utterance, and seconds
/// of near-silence drag that mean far from the speech's (see `RecognizerConfiguration.quietBelowLoudest`).
struct PreparedUtterance: Sendable {
    /// Length of the original clip in seconds.
    let duration: Double
    /// RMS level of the loudest 100 ms of the clip (dBFS) before any gain: below the silence level is no speech.
    let loudestLevel: Double
    /// The frames of the clip that are decoded, and where a decoded frame lies in the clip.
    let keptFrames: KeptFrames
    /// The samples to decode (16 kHz mono): the kept frames of the prepared clip.
    let samples: [Int16]
    /// Mean power of each decoded 10 ms frame, in decoded-frame order.
    let framePowers: [Double]

    /// Samples per decoder frame at `configuration.sampleRate`.
    static func samplesPerFrame(_ configuration: RecognizerConfiguration) -> Int {
        configuration.sampleRate / Int(FlightRecognizer.framesPerSecond)
    }

    /// Prepares `raw` (16 kHz mono) as `configuration` says.
    init(_ raw: [Int16], configuration: RecognizerConfiguration) {
        let sampleRate = configuration.sampleRate
        duration = Double(raw.count) / Double(sampleRate)
        let cleaned = configuration.preprocessor.process(DCOffset.removed(from: raw), sampleRate: sampleRate)
        loudestLevel = AudioLevel.loudestWindowLevel(cleaned, sampleRate: sampleRate)
        let prepared = NoiseFloor.apply(AudioLevel.raised(cleaned, from: loudestLevel, to: configuration.quietRecordingLevel),
                                        level: configuration.noiseFloorLevel)
        let samplesPerFrame = Self.samplesPerFrame(configuration)
        let framesPerSecond = FlightRecognizer.framesPerSecond
        let allPowers = AudioLevel.framePowers(prepared, samplesPerFrame: samplesPerFrame)
        keptFrames = KeptFrames(AudioLevel.keptFrames(allPowers, belowLoudest: configuration.quietBelowLoudest,
                                                      edge: Int(configuration.quietKeptAtEdgesSeconds * framesPerSecond),
                                                      gap: Int(configuration.quietKeptInPausesSeconds * framesPerSecond)))
        samples = keptFrames.samples(of: prepared, samplesPerFrame: samplesPerFrame)
        framePowers = keptFrames.ranges.flatMap { allPowers[$0] }
    }
}
