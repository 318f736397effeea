import AudioInput
import FlightCore
import Foundation
@testable import Recognizer
import Testing

/// Telephone audio (recorded at 8 kHz, or with nothing above 4 kHz) is decoded with the telephone acoustic model and
/// decided on with that model's own decision; everything else as before.
@Suite("Telephone audio goes to the telephone model")
struct TelephoneAudioTests {
    static func clip(_ samples: [Int16], recordedAt rate: Int) -> AudioClip {
        AudioClip(samples: samples, source: AudioSourceInfo(container: "WAV", codec: "PCM", sampleRate: rate, channelCount: 1, sampleFormat: "16-bit integer", decoder: "test"))
    }

    /// One second of tones at `frequencies` (Hz), each at a quarter of full scale.
    static func tones(_ frequencies: [Double]) -> [Int16] {
        (0..<16_000).map { index in
            Int16(frequencies.reduce(0) { $0 + 8_000 * sin(2 * Double.pi * $1 * Double(index) / 16_000) })
        }
    }

    @Test("a clip recorded at 8 kHz or less is telephone audio whatever it holds; at 16 kHz, what it holds decides")
    func bandOfAClip() throws {
        let speech = try TestFlights.samples("lx40.wav")
        #expect(AudioBand(of: Self.clip(speech, recordedAt: 16_000)) == .wide)
        #expect(AudioBand(of: Self.clip(speech, recordedAt: 8_000)) == .telephone)
        #expect(AudioBand(of: Self.clip(try DenoiserSignals.telephoneBand(speech), recordedAt: 16_000)) == .telephone)
        #expect(AudioBand(of: Self.clip(try DenoiserSignals.telephoneBand(speech), recordedAt: 44_100)) == .telephone)
    }

    @Test("the high band's level: tones inside the line's band alone are telephone audio; one above it at -20 dB is not; silence is wide")
    func highBandLevel() throws {
        let inside = Self.tones([500, 1_500, 3_000])
        let level = try #require(AudioBand.highBandLevel(inside, sampleRate: 16_000))
        #expect(level < AudioBand.telephoneHighBandBelow)
        #expect(AudioBand(of: inside, sampleRate: 16_000) == .telephone)

        let above = zip(inside, Self.tones([5_000])).map { Int16(Int($0) * 9 / 10 + Int($1) / 10) }
        let aboveLevel = try #require(AudioBand.highBandLevel(above, sampleRate: 16_000))
        #expect(aboveLevel > -25 && aboveLevel < -10, "one tone at a tenth of the amplitude of three: about -20 dB, measured \(aboveLevel)")
        #expect(AudioBand(of: above, sampleRate: 16_000) == .wide)

        #expect(AudioBand.highBandLevel([Int16](repeating: 0, count: 16_000), sampleRate: 16_000) == nil)
        #expect(AudioBand(of: [Int16](repeating: 0, count: 16_000), sampleRate: 16_000) == .wide)
        #expect(AudioBand(of: [Int16](repeating: 100, count: 100), sampleRate: 16_000) == .wide)
    }

    @Test("the telephone configuration is the adapted model with its own decision, its neural pass read after that decision's prompt; none when it would decode as the main one does")
    func telephoneConfiguration() throws {
        let adapted = try #require(RecognizerConfiguration.adaptedAcousticModel)
        let stock = RecognizerConfiguration()
        let telephone = try #require(stock.telephoneConfiguration)
        #expect(telephone.acousticModel == adapted)
        #expect(telephone.telephoneConfiguration == nil)
        #expect(try telephone.decisionModel() == (try DecisionModel.belonging(toAcousticModel: adapted)))
        // Each reads the neural pass after its own check's prompt: the stock check's was fitted on prompted readings.
        #expect(stock.neuralPass.prompt == nil && telephone.neuralPass.prompt == nil)
        let telephoneCheck = try #require(try telephone.decisionModel()?.neuralCheck)
        #expect(DecisionModel.stock.neuralCheck?.prompt.isEmpty == false && telephoneCheck.prompt.isEmpty)

        var decidedByStockCoefficients = stock
        decidedByStockCoefficients.decisionRule = .model(.stock)
        #expect(try decidedByStockCoefficients.telephoneConfiguration?.decisionModel() != .stock,
                "the telephone model's scores are on its own scale")

        var adaptedAlready = stock
        adaptedAlready.selectModel(folder: adapted)
        #expect(adaptedAlready.telephoneConfiguration == nil)
        var handThresholds = stock
        handThresholds.selectHandThresholds()
        #expect(handThresholds.telephoneConfiguration == nil)
        var none = stock
        none.telephoneAcousticModel = nil
        #expect(none.telephoneConfiguration == nil)
    }

    @Test("a telephone clip is decided exactly as the telephone model decides it alone; a wideband one as before", arguments: ["lx40.wav", "ba287.wav"])
    func telephoneClipIsDecodedByTheTelephoneModel(file: String) throws {
        let line = try DenoiserSignals.telephoneBand(try TestFlights.samples(file))
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary)
        let routed = try recognizer.recognize(Self.clip(line, recordedAt: 8_000))
        let telephone = try #require(RecognizerConfiguration().telephoneConfiguration)
        let alone = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: telephone).recognize(samples: line)
        #expect(routed.transcript == alone.transcript)
        #expect(routed.decision == alone.decision)
        #expect(routed.fitScore == alone.fitScore)
        #expect(try recognizer.recognizer(for: .telephone) !== recognizer)
        #expect(try recognizer.recognizer(for: .wide) === recognizer)

        var withoutRoute = RecognizerConfiguration()
        withoutRoute.telephoneAcousticModel = nil
        let wide = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: withoutRoute)
        #expect(try wide.recognizer(for: .telephone) === wide)
        let original = try TestFlights.samples(file)
        #expect(try recognizer.recognize(Self.clip(original, recordedAt: 16_000)).transcript
                == (try wide.recognize(samples: original)).transcript)
    }

    @Test("a new day's flights reach the telephone recognizer too")
    func loadReachesTheTelephoneRecognizer() throws {
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary)
        let telephone = try recognizer.recognizer(for: .telephone)
        let fewer = FlightVocabulary(airlines: TestFlights.vocabulary.airlines, flights: Array(TestFlights.vocabulary.flights.prefix(3)))
        try recognizer.load(fewer)
        #expect(telephone.vocabulary.flights == fewer.flights)
    }

    @Test("the telephone recognizer and the wideband one share one neural pass, so a worker holds Whisper's weights once")
    func neuralPassIsShared() throws {
        var configuration = RecognizerConfiguration()
        configuration.neuralModel = try #require(RecognizerConfiguration.bundledNeuralModel, "run make neural-model")
        configuration.alwaysReadsNeural = true
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: configuration)
        let telephone = try recognizer.recognizer(for: .telephone)
        #expect(telephone !== recognizer)
        let shared = try #require(telephone.neuralPass, "the telephone recognizer reads the neural pass")
        #expect(recognizer.neuralPass === shared)
        _ = try recognizer.recognize(samples: try TestFlights.samples("lx40.wav"))
        #expect(recognizer.neuralPass === shared, "reading a wideband clip does not make a second one")
        let fewer = FlightVocabulary(airlines: TestFlights.vocabulary.airlines, flights: Array(TestFlights.vocabulary.flights.prefix(3)))
        try recognizer.load(fewer)
        #expect(recognizer.neuralPass === shared && telephone.neuralPass === shared, "a new day's flights keep one pass")
    }
}
