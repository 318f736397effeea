import AudioInput
import Foundation
import ProcessTestSupport
import Testing
@testable import Whisper

/// The Swift Whisper pinned against CTranslate2 4.8.5 (float32, CPU) and faster-whisper 1.2.1's log-mel, both from
/// PyPI in a throw-away virtual environment under .build, computed by scripts/neural-model/whisper-reference.py on
/// three sample clips, on Whisper's full 30 s window (the only window CTranslate2's encoder accepts).
@Suite(.serialized) struct WhisperReferenceTests {
    /// Largest difference allowed, per value, between our log-mel and faster-whisper's (measured: 1.3e-5 at
    /// most; ours is computed in double precision, theirs in float32).
    static let melTolerance: Float = 1e-4
    /// Largest difference allowed, per value, in the encoder output (measured: 4.4e-4 at most).
    static let encoderTolerance: Float = 5e-3
    /// Largest difference allowed in the log-probability of a token scored, in nats (measured: 0.014 at most, from the
    /// output projection's 12-bit weights and inputs, `QuantizedMatrix`; 4.4e-4 with the half floats it was before).
    static let logProbabilityTolerance: Float = 0.03
    /// Largest difference allowed in a log-probability over the whole vocabulary at every position, in nats (measured:
    /// 0.069 at most, on tokens far below the likely ones).
    static let vocabularyTolerance: Float = 0.15
    /// Largest difference allowed between a hypothesis's log-probabilities in a batch and alone (measured: 7.5e-4): its
    /// rows differ by float rounding, which can move one of the output projection's inputs to the next 12-bit step.
    static let batchTolerance: Float = 3e-3

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let modelFolder = packageRoot.appendingPathComponent("models/whisper-tiny.en")
    static let environmentFolder = packageRoot.appendingPathComponent(".build/whisper-reference-venv")
    static let referenceFolder = packageRoot.appendingPathComponent(".build/whisper-reference")
    /// The tuned decoder (a low-rank change to the decoder's weights) and where its reference goes: CTranslate2 running
    /// the stock weights with the change merged in.
    static let tunedDecoder = packageRoot.appendingPathComponent("models/whisper-tiny.en-flightvoice/decoder-adaptation.bin")
    static let tunedReferenceFolder = packageRoot.appendingPathComponent(".build/whisper-reference-tuned")

    /// The stock neural check's prompt (`DecisionModel.NeuralCheck.prompt`): " Flight number, spelled letter by letter and digit by digit."
    static let prompt = [13365, 1271, 11, 32213, 3850, 416, 3850, 290, 16839, 416, 16839, 13]
    /// The clips and the text token ids scored on each (ids from tokenizer.json; each written out beside it), after
    /// the start sequence or, given a prompt, after `<|startofprev|>`, the prompt and the start sequence.
    static let clips: [(name: String, path: String, sequences: [[Int]], prompted: [[Int]])] = [
        ("lx40", "Samples/lx40.wav", [
            [44988, 2319, 13],                    // " LX 40."
            [41578, 1395, 12, 2433, 2319, 13],    // " Lima X-ray 40."
        ], [
            [44988, 2319, 13],                    // " LX 40."
        ]),
        ("speedbird-287", "Samples/speedbird-287.wav", [
            [8729, 16944, 38721, 13],             // " Speedbird 287."
            [23715, 38721, 13],                   // " BA 287."
        ], []),
        ("gate-for-lima-xray", "Samples/gate-for-lima-xray.wav", [
            [1867, 338, 262, 8946, 329, 41578, 1395, 12, 2433, 2319, 30],  // " What's the gate for Lima X-ray 40?"
            [1867, 318, 262, 8946, 329, 44988, 2319, 30],                 // " What is the gate for LX 40?"
        ], [
            [1867, 338, 262, 8946, 329, 41578, 1395, 12, 2433, 2319, 30],  // " What's the gate for Lima X-ray 40?"
        ]),
    ]

    struct Reference: Decodable {
        struct Sequence: Decodable {
            let prompt: [Int]
            let tokens: [Int]
            let logProbabilities: [Float]
            let file: String
        }
        struct Clip: Decodable {
            let name: String
            let sampleCount: Int
            let mel: String
            let encoder: String
            let greedy: [Int]
            let sequences: [Sequence]
        }
        let clips: [Clip]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The environment's python, creating it and installing the reference packages on first use.
    static func python() throws -> String {
        let python = environmentFolder.appendingPathComponent("bin/python").path
        // (faster_whisper itself is not imported: its package imports need av and onnxruntime, which are not installed.)
        let check = ["-c", "import ctranslate2, numpy, importlib.util, sys; sys.exit(importlib.util.find_spec('faster_whisper') is None)"]
        if FileManager.default.isExecutableFile(atPath: python), try runToEnd(python, check).status == 0 { return python }
        let created = try runToEnd("/usr/bin/python3", ["-m", "venv", environmentFolder.path])
        guard created.status == 0 else { throw Failure("python3 -m venv failed (is python3-venv installed? make deps installs it): \(created.output)") }
        let installed = try runToEnd(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "ctranslate2==4.8.5", "numpy"])
        guard installed.status == 0 else { throw Failure("pip install ctranslate2==4.8.5 numpy failed: \(installed.output)") }
        // Only its numpy feature extractor is used; its other dependencies (av, onnxruntime, ...) are not needed.
        let extractor = try runToEnd(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "faster-whisper==1.2.1"])
        guard extractor.status == 0 else { throw Failure("pip install faster-whisper==1.2.1 failed: \(extractor.output)") }
        return python
    }

    /// The reference, computed once per test run.
    static let reference = computeReference(into: referenceFolder)
    /// The tuned decoder's reference, computed once per test run.
    static let tunedReference = computeReference(into: tunedReferenceFolder, adaptation: tunedDecoder)

    /// whisper-reference.py's numbers for `clips` in `folder`, of the stock weights or, given `adaptation`, of the
    /// weights with it merged in.
    static func computeReference(into folder: URL, adaptation: URL? = nil) -> Result<Reference, Failure> {
        do {
            var arguments = [packageRoot.appendingPathComponent("scripts/neural-model/whisper-reference.py").path,
                             modelFolder.path, folder.path] + (adaptation.map { ["--adaptation", $0.path] } ?? [])
            for clip in clips {
                arguments += ["--clip", "\(clip.name)=\(packageRoot.appendingPathComponent(clip.path).path)"]
                func ids(_ tokens: [Int]) -> String { tokens.map(String.init).joined(separator: ",") }
                arguments += clip.sequences.flatMap { ["--sequence", "\(clip.name)=" + ids($0)] }
                arguments += clip.prompted.flatMap { ["--sequence", "\(clip.name)=\(ids(prompt)):" + ids($0)] }
            }
            let run = try runToEnd(try python(), arguments)
            guard run.status == 0 else { return .failure(Failure("whisper-reference.py failed (\(run.status)): \(run.output)")) }
            let data = try Data(contentsOf: folder.appendingPathComponent("reference.json"))
            return .success(try JSONDecoder().decode(Reference.self, from: data))
        } catch {
            return .failure(Failure("\(error)"))
        }
    }

    static let model: Result<WhisperModel, WhisperModelError> = Result { () throws(WhisperModelError) in try WhisperModel(folder: modelFolder) }
    static let tunedModel: Result<WhisperModel, WhisperModelError> = Result { () throws(WhisperModelError) in
        try model.get().adapted(by: CTranslate2ModelFile(path: tunedDecoder.path))
    }

    /// Each clip's 30 s window spectrogram and encoding, computed once for the tests that compare with the reference.
    static let fullWindow: Result<[(mel: LogMelSpectrogram, encoding: WhisperEncoding)], Failure> = {
        do {
            let model = try Self.model.get()
            return .success(try clips.map { clip in
                let mel = LogMelSpectrogram(samples: try samples(clip.path), frameCount: LogMelSpectrogram.fullWindowFrameCount)
                return (mel, model.encode(mel))
            })
        } catch {
            return .failure(Failure("\(error)"))
        }
    }()

    static func floats(_ file: String) throws -> [Float] {
        let data = try Data(contentsOf: referenceFolder.appendingPathComponent(file))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func samples(_ path: String) throws -> [Float] {
        let clip = try AudioFileDecoder.decode(path: packageRoot.appendingPathComponent(path).path)
        return clip.samples.map { Float($0) / 32768 }
    }

    static func maximumDifference(_ a: some Collection<Float>, _ b: some Collection<Float>) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    @Test func theLogMelIsFasterWhispersWithinTolerance() throws {
        let reference = try Self.reference.get()
        for ((clip, expected), (mel, _)) in zip(zip(Self.clips, reference.clips), try Self.fullWindow.get()) {
            #expect(try Self.samples(clip.path).count == expected.sampleCount)
            let referenceMel = try Self.floats(expected.mel)
            #expect(referenceMel.count == mel.values.count)
            let difference = Self.maximumDifference(mel.values, referenceMel)
            print("\(clip.name): log-mel max |difference| \(difference)")
            #expect(difference <= Self.melTolerance, "\(clip.name): log-mel differs by \(difference)")
        }
    }

    @Test func theEncoderOutputIsCTranslate2sWithinTolerance() throws {
        let reference = try Self.reference.get()
        let model = try Self.model.get()
        for ((clip, expected), (_, encoding)) in zip(zip(Self.clips, reference.clips), try Self.fullWindow.get()) {
            #expect(encoding.positionCount == model.dimensions.audioContextLength)
            let referenceOutput = try Self.floats(expected.encoder)
            #expect(referenceOutput.count == encoding.output.values.count)
            let difference = Self.maximumDifference(encoding.output.values, referenceOutput)
            print("\(clip.name): encoder max |difference| \(difference)")
            #expect(difference <= Self.encoderTolerance, "\(clip.name): encoder output differs by \(difference)")
        }
    }

    @Test func teacherForcedLogProbabilitiesAreCTranslate2sWithinTolerance() throws {
        let reference = try Self.reference.get()
        let model = try Self.model.get()
        let vocabulary = model.dimensions.vocabularySize
        for ((clip, expected), (_, encoding)) in zip(zip(Self.clips, reference.clips), try Self.fullWindow.get()) {
            #expect(expected.sequences.count == clip.sequences.count + clip.prompted.count)
            for sequence in expected.sequences {
                let rows = try Self.floats(sequence.file)
                let forced = sequence.tokens + [WhisperTokens.endOfText]
                #expect(rows.count == forced.count * vocabulary)
                let startSequence = WhisperTokens.startSequence(afterPrompt: sequence.prompt)
                var step = model.feed(encoding, tokens: startSequence)
                var worstToken: Float = 0, worstRow: Float = 0
                for (position, token) in forced.enumerated() {
                    let ours = step.logProbability(of: token, hypothesis: 0)
                    worstToken = max(worstToken, abs(ours - sequence.logProbabilities[position]))
                    worstRow = max(worstRow, Self.maximumDifference(step.logProbabilities.row(0), rows[position * vocabulary..<(position + 1) * vocabulary]))
                    if token != WhisperTokens.endOfText { step = model.step(encoding, states: step.states, tokens: [token]) }
                }
                // The same sequence fed in one pass, every position's distribution at once.
                let start = model.feed(encoding, tokens: startSequence)
                let whole = model.feed(encoding, states: start.states, sequences: [sequence.tokens])
                #expect(whole.states[0].length == startSequence.count + sequence.tokens.count)
                let distributions = [start.logProbabilities.row(0)] + sequence.tokens.indices.map { whole.distribution(sequence: 0, position: $0) }
                for (position, distribution) in distributions.enumerated() {
                    worstRow = max(worstRow, Self.maximumDifference(distribution, rows[position * vocabulary..<(position + 1) * vocabulary]))
                }
                print("\(clip.name) \(sequence.prompt.isEmpty ? "" : "(prompted) ")\(sequence.tokens): worst token log-prob |difference| \(worstToken), over the vocabulary \(worstRow)")
                #expect(worstToken <= Self.logProbabilityTolerance)
                #expect(worstRow <= Self.vocabularyTolerance, "\(clip.name) \(sequence.tokens): log-softmax rows differ by \(worstRow)")
            }
        }
    }

    /// The tuned decoder, its change added at run time to the stock weights and their encoding reused, against
    /// CTranslate2 running the weights with the change merged in (rounded to their float16).
    @Test func theTunedDecoderScoresAsCTranslate2WithItsChangeMerged() throws {
        let reference = try Self.tunedReference.get(), stock = try Self.reference.get()
        let tuned = try Self.tunedModel.get()
        var largestChange: Float = 0
        for (((clip, expected), stockClip), (_, encoding)) in zip(zip(zip(Self.clips, reference.clips), stock.clips), try Self.fullWindow.get()) {
            let tunedEncoding = tuned.reusingEncoder(of: encoding)
            for (sequence, stockSequence) in zip(expected.sequences, stockClip.sequences) {
                let forced = sequence.tokens + [WhisperTokens.endOfText]
                var step = tuned.feed(tunedEncoding, tokens: WhisperTokens.startSequence(afterPrompt: sequence.prompt))
                var worst: Float = 0
                for (position, token) in forced.enumerated() {
                    worst = max(worst, abs(step.logProbability(of: token, hypothesis: 0) - sequence.logProbabilities[position]))
                    largestChange = max(largestChange, abs(sequence.logProbabilities[position] - stockSequence.logProbabilities[position]))
                    if token != WhisperTokens.endOfText { step = tuned.step(tunedEncoding, states: step.states, tokens: [token]) }
                }
                print("\(clip.name) tuned \(sequence.prompt.isEmpty ? "" : "(prompted) ")\(sequence.tokens): worst token log-prob |difference| \(worst)")
                #expect(worst <= Self.logProbabilityTolerance, "\(clip.name) \(sequence.tokens): the tuned decoder differs by \(worst)")
            }
            #expect(tuned.greedyTokens(tunedEncoding) == expected.greedy, "\(clip.name)")
        }
        // Tuned on our queries, it must score them otherwise than the stock decoder does, or nothing was applied.
        #expect(largestChange > 0.5, "the tuned reference differs from the stock one by at most \(largestChange) nats")
    }

    @Test func greedyDecodingGivesCTranslate2sTokens() throws {
        let reference = try Self.reference.get()
        let model = try Self.model.get()
        for ((clip, expected), (_, encoding)) in zip(zip(Self.clips, reference.clips), try Self.fullWindow.get()) {
            #expect(model.greedyTokens(encoding) == expected.greedy, "\(clip.name)")
        }
    }

    /// One model shared by workers on other threads gives each the numbers it gives alone.
    @Test func concurrentWorkersShareOneModel() async throws {
        let model = try Self.model.get()
        let clips = try ["Samples/lx40.wav", "Samples/speedbird-287.wav"].map { try Self.samples($0) }
        @Sendable func work(_ samples: [Float]) -> Matrix {
            let encoding = model.encode(LogMelSpectrogram(samples: samples, frameCount: LogMelSpectrogram.frameCount(forSampleCount: samples.count)))
            let start = model.feed(encoding, tokens: WhisperTokens.startSequence)
            return model.step(encoding, states: [start.states[0], start.states[0]], tokens: [44988, 8729]).logProbabilities
        }
        let alone = clips.map(work)
        let together = await withTaskGroup(of: (Int, Matrix).self) { group in
            for (index, samples) in clips.enumerated() { group.addTask { (index, work(samples)) } }
            var results: [Int: Matrix] = [:]
            for await (index, result) in group { results[index] = result }
            return results
        }
        for index in clips.indices { #expect(together[index] == alone[index], "worker \(index) differs when run beside another") }
    }

    /// A batch of forked hypotheses of different lengths gives each the numbers it gets alone.
    @Test func aBatchOfForkedHypothesesMatchesSingleSteps() throws {
        let model = try Self.model.get()
        let samples = try Self.samples("Samples/lx40.wav")
        let encoding = model.encode(LogMelSpectrogram(samples: samples, frameCount: LogMelSpectrogram.frameCount(forSampleCount: samples.count)))
        let start = model.feed(encoding, tokens: WhisperTokens.startSequence)
        let lx = model.step(encoding, states: start.states, tokens: [44988])            // " LX"
        let lima = model.step(encoding, states: start.states, tokens: [41578])          // " Lima", a sibling
        // Three children of two parents, one of them deeper, in one batch.
        let batch = model.step(encoding, states: [lx.states[0], lx.states[0], lima.states[0]], tokens: [2319, 604, 1395])
        let alone = [(lx.states[0], 2319), (lx.states[0], 604), (lima.states[0], 1395)].map { model.step(encoding, states: [$0.0], tokens: [$0.1]) }
        for (index, single) in alone.enumerated() {
            let difference = Self.maximumDifference(batch.logProbabilities.row(index), single.logProbabilities.row(0))
            #expect(difference <= Self.batchTolerance, "hypothesis \(index) differs by \(difference) in a batch")
            #expect(batch.states[index].length == 4)
        }
        // Sequences of different lengths fed to forked hypotheses in one pass give every position what steps give.
        let fed2 = model.feed(encoding, states: [lx.states[0], lima.states[0]], sequences: [[2319, 13], [1395, 12, 2433]])
        #expect(fed2.states.map(\.length) == [5, 6])
        #expect(fed2.rowOffsets == [0, 2])
        let lx40 = model.step(encoding, states: [lx.states[0]], tokens: [2319])
        #expect(Self.maximumDifference(fed2.distribution(sequence: 0, position: 0), lx40.logProbabilities.row(0)) <= Self.batchTolerance)
        var limaStep = lima
        for (position, token) in [1395, 12, 2433].enumerated() {
            limaStep = model.step(encoding, states: limaStep.states, tokens: [token])
            #expect(Self.maximumDifference(fed2.distribution(sequence: 1, position: position), limaStep.logProbabilities.row(0)) <= Self.batchTolerance)
        }
        let lastOnly = model.feed(encoding, states: [lx.states[0], lima.states[0]], sequences: [[2319, 13], [1395, 12, 2433]], allPositions: false)
        #expect(lastOnly.logProbabilities.rows == 2)
        #expect(Self.maximumDifference(lastOnly.distribution(sequence: 1, position: 0), limaStep.logProbabilities.row(0)) <= Self.batchTolerance)
        // A grandchild of the batch continues as the same sequence fed alone.
        let continued = model.step(encoding, states: [batch.states[0]], tokens: [13])
        let fed = model.feed(encoding, tokens: WhisperTokens.startSequence + [44988, 2319, 13])
        #expect(Self.maximumDifference(continued.logProbabilities.row(0), fed.logProbabilities.row(0)) <= Self.batchTolerance)
    }
}
