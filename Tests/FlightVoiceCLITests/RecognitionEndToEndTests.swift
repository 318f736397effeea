import Foundation
import Testing

/// `recognize` and `eval` as a user runs them, on the bundled sample clips (Samples/, with Samples/manifest.tsv).
@Suite(.serialized) struct RecognitionEndToEndTests {
    static let samples = BuiltBinary.packageRoot.appendingPathComponent("Samples")

    /// A folder with two sample clips, a PNG named .wav, and an empty file.
    static func folderWithABadFile(in binary: BuiltBinary) throws -> URL {
        let folder = binary.folder.appendingPathComponent("clips/nested", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["lx40.wav", "speedbird-287.wav"] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 64)).write(to: folder.appendingPathComponent("photo.wav"))
        try Data().write(to: folder.appendingPathComponent("empty.wav"))
        try Data("not audio".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        return binary.folder.appendingPathComponent("clips")
    }

    @Test func aFolderWithABadFileAnswersEveryClipAndExits1() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let folder = try Self.folderWithABadFile(in: binary)
        let run = try binary.run(["recognize", "--jobs", "2", folder.path])
        #expect(run.exitCode == 1)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "one line per audio file, notes.txt skipped: \(lines)")
        #expect(lines[0].hasPrefix(folder.path + "/nested/empty.wav  error: "))
        #expect(lines[1].contains("lx40.wav  \"l x forty\"  → LX 40 Swiss → New York JFK · Gate E34 · Boarding"))
        #expect(lines[2].contains("photo.wav  error: ") && lines[2].contains("PNG image"))
        #expect(lines[3].contains("speedbird-287.wav  \"speedbird two eight seven\"  → BA 287 British Airways"))
        #expect(run.standardError.contains("4 clips: 2 found"))
    }

    @Test func jsonLinesCarryTheDocumentedFields() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let folder = try Self.folderWithABadFile(in: binary)
        let run = try binary.run(["recognize", "--format", "jsonl", folder.path])
        let objects = try run.standardOutput.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == 4)
        for object in objects {
            for key in ["path", "status", "transcript", "flight", "confidence", "alternatives", "words", "flight_info", "error"] {
                #expect(object.keys.contains(key), "missing \(key)")
            }
        }
        let found = try #require(objects.first { ($0["path"] as? String)?.hasSuffix("lx40.wav") == true })
        #expect(found["status"] as? String == "found")
        #expect(found["flight"] as? String == "LX40")
        #expect((found["flight_info"] as? [String: Any])?["gate"] as? String == "E34")
        let words = try #require(found["words"] as? [[String: Any]])
        #expect(words.map { $0["word"] as? String } == ["l", "x", "forty"])
        let broken = try #require(objects.first { ($0["path"] as? String)?.hasSuffix("photo.wav") == true })
        #expect(broken["status"] as? String == "error")
        #expect((broken["error"] as? String)?.contains("PNG") == true)
    }

    @Test func transcribeDocumentsAreWrittenPerClip() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let out = binary.folder.appendingPathComponent("out")
        let run = try binary.run(["recognize", "--format", "transcribe", "--out", out.path, Self.samples.appendingPathComponent("lx40.wav").path])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput.isEmpty)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("lx40.json"))) as! [String: Any]
        #expect(document["status"] as? String == "COMPLETED")
        let results = try #require(document["results"] as? [String: Any])
        #expect((results["transcripts"] as? [[String: Any]])?.first?["transcript"] as? String == "l x forty")
        let items = try #require(results["items"] as? [[String: Any]])
        #expect(items.count == 3)
        #expect(items.allSatisfy { $0["type"] as? String == "pronunciation" && $0["start_time"] is String && $0["end_time"] is String })
    }

    @Test func standardInputIsOneClip() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["recognize", "-"], input: try Data(contentsOf: Self.samples.appendingPathComponent("speedbird-287.wav")))
        #expect(run.exitCode == 0)
        #expect(run.standardOutput.hasPrefix("-  \"speedbird two eight seven\"  → BA 287"))
    }

    @Test func speechThatNamesNoFlightIsNotAnsweredWithAFlight() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["recognize", "--format", "jsonl", Self.samples.appendingPathComponent("no-flight.wav").path])
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as! [String: Any]
        #expect(object["status"] as? String != "found", "heard \(object["transcript"] ?? "")")
        #expect(object["flight_info"] is NSNull)
    }

    @Test func writeGrammarWritesTheGrammarTheAutomatonItsPassesSearchAndTheAddedWords() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let folder = binary.folder.appendingPathComponent("grammar")
        let run = try binary.run(["recognize", "--write-grammar", folder.path])
        #expect(run.exitCode == 0)
        let jsgf = try String(contentsOf: folder.appendingPathComponent("today.jsgf"), encoding: .utf8)
        #expect(jsgf.contains("<airline_LX>"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("added.dict").path))
        // The automaton in the library's FSG format: one start and one final state, every arc between known states,
        // nothing out of the final state, and only the grammar's own words.
        let lines = try String(contentsOf: folder.appendingPathComponent("today.fsg"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.first == ["FSG_BEGIN", "today"] && lines.last == ["FSG_END"])
        let states = try #require(lines.first { $0.first == "NUM_STATES" }.flatMap { Int($0[1]) })
        let final = try #require(lines.first { $0.first == "FINAL_STATE" }.flatMap { Int($0[1]) })
        let arcs = lines.filter { $0.first == "TRANSITION" }
        #expect(arcs.count > states)
        #expect(arcs.allSatisfy { Int($0[1])! < states && Int($0[2])! < states && $0[3] == "1.0" })
        #expect(!arcs.contains { Int($0[1]) == final })
        let jsgfWords = Set(jsgf.split { !$0.isLetter && $0 != "'" && $0 != "-" }.map(String.init))
        #expect(arcs.compactMap { $0.count > 4 ? $0[4] : nil }.allSatisfy(jsgfWords.contains))
        #expect(arcs.contains { $0.count > 4 && $0[4] == "forty" })
    }

    @Test func missingClipsAndModelsGetTheirOwnErrors() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let missing = try binary.run(["recognize", binary.folder.appendingPathComponent("nope.wav").path])
        #expect(missing.exitCode == 1)
        #expect(missing.standardOutput.contains("nope.wav  error: ") && missing.standardOutput.contains("no such file"))
        let noModel = try binary.run(["recognize", "--model", "/nonexistent/model", Self.samples.appendingPathComponent("lx40.wav").path])
        #expect(noModel.exitCode == 69)
        #expect(noModel.standardError.contains("/nonexistent/model"))
        #expect(try binary.run(["recognize"]).exitCode == 64)
        #expect(try binary.run(["recognize", "--out", "x", "a.wav"]).exitCode == 64)
        // Options kept only for measurement say where they went; the no-op one says it is gone.
        let moved = try binary.run(["recognize", "--hand-thresholds", Self.samples.appendingPathComponent("lx40.wav").path])
        #expect(moved.exitCode == 64)
        #expect(moved.standardError.contains("unknown option '--hand-thresholds' (--hand-thresholds is for measurement now: flightvoice eval --hand-thresholds"), "\(moved.standardError)")
        let gone = try binary.run(["eval", "--calibrated-decision", Self.samples.appendingPathComponent("manifest.tsv").path])
        #expect(gone.exitCode == 64)
        #expect(gone.standardError.contains("the calibrated decision is the default"), "\(gone.standardError)")
        let nowDefault = try binary.run(["recognize", "--neural-check", Self.samples.appendingPathComponent("lx40.wav").path])
        #expect(nowDefault.exitCode == 64)
        #expect(nowDefault.standardError.contains("--neural-check is the default now"), "\(nowDefault.standardError)")
    }

    /// `eval --features` on the one clip `clip` with `options`: its row of decision measures by column, or nil (and an
    /// issue recorded) when eval failed.
    static func evalFeatures(_ binary: BuiltBinary, _ options: [String], clip: String) throws -> [String: String] {
        let manifest = binary.folder.appendingPathComponent("one-\(UUID().uuidString).tsv")
        try "path\tflight\n\(clip)\t\n".write(to: manifest, atomically: true, encoding: .utf8)
        let features = binary.folder.appendingPathComponent("features-\(UUID().uuidString).tsv")
        let run = try binary.run(["eval", "--jobs", "1", "--features", features.path] + options + [manifest.path])
        #expect(run.exitCode == 0, "\(options): \(run.standardError)")
        let rows = try String(contentsOf: features, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        try #require(rows.count == 2, "\(rows)")
        return Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))
    }

    @Test("eval --denoise picks a noise suppressor and each decodes the clip; an unknown one is a usage error; recognize has none")
    func denoiseOption() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        // Only that each is wired and decodes: what they answer is measured by `eval` (docs/experiments.md, "Noise suppression";
        // SpeexDSP and WebRTC hear this clip as "l x four three").
        let clip = Self.samples.appendingPathComponent("lx40.wav").path
        for suppressor in ["none", "speex", "spectral", "webrtc"] {
            let row = try Self.evalFeatures(binary, ["--denoise", suppressor], clip: clip)
            #expect(row["heard_flight"]?.hasPrefix("LX") == true, "\(suppressor): \(row)")
        }
        let unknown = try binary.run(["eval", "--denoise", "rnnoise", Self.samples.appendingPathComponent("manifest.tsv").path])
        #expect(unknown.exitCode == 64)
        #expect(unknown.standardError.contains("none, speex, spectral, webrtc"))
        let notOnRecognize = try binary.run(["recognize", "--denoise", "speex", clip])
        #expect(notOnRecognize.exitCode == 64)
        #expect(notOnRecognize.standardError.contains("every suppressor cost right answers"), "\(notOnRecognize.standardError)")
    }

    @Test("a corrupt model the library would exit on is exit 69 with the library's reason, not a silent stop",
          arguments: [("mdef", "garbage"), ("transition_matrices", "s3\nversion 1.0\n")])
    func corruptModel(file: String, content: String) throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let model = try Self.stockModelLinks(in: binary, named: "model", except: file)
        try content.write(to: model.appendingPathComponent(file), atomically: true, encoding: .utf8)
        let run = try binary.run(["recognize", "--model", model.path, Self.samples.appendingPathComponent("lx40.wav").path])
        #expect(run.exitCode == 69)
        #expect(run.standardError.contains("cannot be loaded") && run.standardError.contains(file), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test("--model selects Debian's stock model by its package folder and the adapted one by name; a model without its own decision-model.json is exit 69 unless eval decides by hand")
    func modelSelection() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let clip = Self.samples.appendingPathComponent("lx40.wav").path
        let stock = try binary.run(["recognize", "--format", "jsonl", "--model", "/usr/share/pocketsphinx/model/en-us", clip])
        #expect(stock.exitCode == 0, "\(stock.standardError)")
        #expect(stock.standardOutput.contains(#""flight":"LX40""#), "\(stock.standardOutput)")
        let adapted = try binary.run(["recognize", "--format", "jsonl", "--model", "adapted", clip])
        #expect(adapted.exitCode == 0, "the committed adapted model, with its own decision: \(adapted.standardError)")
        #expect(adapted.standardOutput.contains(#""flight":"LX40""#), "\(adapted.standardOutput)")
        let model = try Self.stockModelLinks(in: binary, named: "foreign-model")
        let refused = try binary.run(["recognize", "--model", model.path, clip])
        #expect(refused.exitCode == 69)
        #expect(refused.standardError.contains("decision-model.json") && refused.standardError.contains(model.path), "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.contains("flightvoice eval --hand-thresholds"), "\(refused.standardError)")
        let byHand = try Self.evalFeatures(binary, ["--hand-thresholds", "--model", model.path], clip: clip)
        #expect(byHand["heard_flight"] == "LX40", "the hand thresholds decide on any model (for measurement): \(byHand)")
    }

    /// A model folder in the binary's scratch folder of links to Debian's stock model files (all but `except`): a model
    /// without a decision-model.json of its own.
    static func stockModelLinks(in binary: BuiltBinary, named name: String, except: String? = nil) throws -> URL {
        let packaged = "/usr/share/pocketsphinx/model/en-us/en-us"
        let model = binary.folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: packaged) where file != except {
            try FileManager.default.createSymbolicLink(atPath: model.appendingPathComponent(file).path, withDestinationPath: packaged + "/" + file)
        }
        return model
    }

    @Test("an 8 kHz clip is decided by the telephone model (the adapted one) unless eval --telephone-model none; a telephone model that is missing or cannot decide is exit 69")
    func telephoneModel() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let clip = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AudioInputTests/Fixtures/speech-8k-s16.wav").path
        func answer(_ options: [String]) throws -> [String: String] { try Self.evalFeatures(binary, options, clip: clip) }
        // "L X forty" through an 8 kHz line: the adapted model hears it; Debian's stock model, which never heard an empty
        // band above 4 kHz, decides otherwise (docs/accuracy-and-decisions.md, "Telephone audio").
        let routed = try answer([])
        #expect(routed["heard_flight"] == "LX40", "\(routed)")
        #expect(try answer(["--telephone-model", "adapted"])["confidence"] == routed["confidence"])
        let unrouted = try answer(["--telephone-model", "none"])
        #expect(unrouted["confidence"] != routed["confidence"], "\(unrouted)")
        #expect(try answer(["--model", "adapted"])["confidence"] == routed["confidence"])
        let recognized = try binary.run(["recognize", "--format", "jsonl", clip])
        #expect(recognized.standardOutput.contains(#""flight":"LX40""#), "recognize routes telephone audio too: \(recognized.standardOutput)")

        let manifest = binary.folder.appendingPathComponent("telephone.tsv")
        try "path\tflight\n\(clip)\tLX40\n".write(to: manifest, atomically: true, encoding: .utf8)
        let missing = try binary.run(["eval", "--telephone-model", "/nonexistent/model", manifest.path])
        #expect(missing.exitCode == 69)
        #expect(missing.standardError.contains("/nonexistent/model"), "\(missing.standardError)")
        let model = try Self.stockModelLinks(in: binary, named: "undecided-model")
        let undecided = try binary.run(["eval", "--telephone-model", model.path, manifest.path])
        #expect(undecided.exitCode == 69)
        #expect(undecided.standardError.contains("decision-model.json") && undecided.standardError.contains(model.path), "\(undecided.standardError)")
    }

    @Test func evalReportsAccuracyOnTheSamples() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["eval", "--misses", Self.samples.appendingPathComponent("manifest.tsv").path])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput.contains("all                       4"))
        #expect(run.standardOutput.contains("wrong flights: 0 of 4 clips"), "\(run.standardOutput)")
        let badManifest = binary.folder.appendingPathComponent("bad.tsv")
        try "path\tflight\nx.wav\tforty\n".write(to: badManifest, atomically: true, encoding: .utf8)
        let refused = try binary.run(["eval", badManifest.path])
        #expect(refused.exitCode == 65)
        #expect(refused.standardError.contains("bad.tsv:2"))
    }

    @Test func evalWritesEachClipsDecisionMeasuresInManifestOrder() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let features = binary.folder.appendingPathComponent("features.tsv")
        let run = try binary.run(["eval", "--jobs", "2", "--features", features.path, Self.samples.appendingPathComponent("manifest.tsv").path])
        #expect(run.exitCode == 0)
        let rows = try String(contentsOf: features, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first?.prefix(7) == ["path", "expected", "outcome", "heard_flight", "decision", "confidence", "fit_score"])
        #expect(rows.dropFirst().map(\.first) == ["lx40.wav", "speedbird-287.wav", "gate-for-lima-xray.wav", "no-flight.wav"])
        for row in rows.dropFirst() {
            #expect(row.count == rows[0].count)
            #expect(Double(row[6]) != nil && Double(row[7]) != nil && Double(row[9]) != nil, "\(row)")
        }
        #expect(rows[1][1...4] == ["LX40", "correct", "LX40", "accept"])
        let unwritable = try binary.run(["eval", "--features", "/nonexistent/features.tsv", Self.samples.appendingPathComponent("manifest.tsv").path])
        #expect(unwritable.exitCode == 74)
    }

    @Test func evalWithRivalAndCrossCheckReadsTheSecondModelsOwnDecisionOnEveryFlightHeard() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let features = binary.folder.appendingPathComponent("features.tsv")
        let run = try binary.run(["eval", "--jobs", "2", "--rival", "--cross-check", "--features", features.path, Self.samples.appendingPathComponent("manifest.tsv").path])
        #expect(run.exitCode == 0, "\(run.standardError)")
        let rows = try String(contentsOf: features, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let flight = try #require(rows[0].firstIndex(of: "cross_check_flight")), probability = try #require(rows[0].firstIndex(of: "cross_check_probability"))
        let lx40 = try #require(rows.first { $0.first == "lx40.wav" })
        #expect(lx40[flight] == "LX40", "the adapted model hears the bundled clip's flight too: \(lx40)")
        #expect(try #require(Double(lx40[probability])) > 0.5)
        let heard = try #require(rows[0].firstIndex(of: "heard_today"))
        for row in rows.dropFirst() { #expect(row[heard].isEmpty == row[probability].isEmpty, "read wherever a flight was heard: \(row)") }
        let alone = try binary.run(["eval", "--jobs", "2", "--rival", "--features", features.path, Self.samples.appendingPathComponent("manifest.tsv").path])
        #expect(alone.exitCode == 0)
        let unchecked = try String(contentsOf: features, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(unchecked.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false)[probability].isEmpty }, "no second model unless asked")
    }

    @Test func evalDecodesWithTheSilenceProbabilityAskedFor() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let manifest = Self.samples.appendingPathComponent("manifest.tsv").path
        func fitScores(_ options: [String]) throws -> [String] {
            let features = binary.folder.appendingPathComponent("features-\(options.count).tsv")
            let run = try binary.run(["eval", "--jobs", "1", "--features", features.path] + options + [manifest])
            #expect(run.exitCode == 0, "\(run.standardError)")
            return try String(contentsOf: features, encoding: .utf8).split(separator: "\n").dropFirst()
                .map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[6]) }
        }
        // A pause between words costs far less at 0.1 than at the library's 0.005, so the decodes, and their fits, move.
        let library = try fitScores([])
        #expect(try fitScores(["--silence-probability", "0.005"]) == library)
        #expect(try fitScores(["--silence-probability", "0.1"]) != library)
        for bad in ["0", "1.5", "often"] {
            let refused = try binary.run(["eval", "--silence-probability", bad, manifest])
            #expect(refused.exitCode == 64)
            #expect(refused.standardError.contains("--silence-probability"), "\(refused.standardError)")
        }
    }

    @Test func evalLiveWritesTheAudioEachAnswerWasDecodedFromAndRecognizeOnItGivesTheLiveAnswer() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let manifest = binary.folder.appendingPathComponent("one.tsv")
        try "path\tflight\n\(Self.samples.appendingPathComponent("lx40.wav").path)\tLX40\n".write(to: manifest, atomically: true, encoding: .utf8)
        let folder = binary.folder.appendingPathComponent("live-audio")
        let features = binary.folder.appendingPathComponent("features.tsv")
        let run = try binary.run(["eval", "--live", "--live-audio", folder.path, "--features", features.path, manifest.path])
        #expect(run.exitCode == 0, "\(run.standardError)")
        let rows = try String(contentsOf: folder.appendingPathComponent("endpoints.tsv"), encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first == ["path", "audio", "reason", "speech_start_s", "speech_end_s", "endpoint_s", "decode_started_s", "decoded_s",
                               "rival_alongside"])
        let row = try #require(rows.dropFirst().first)
        #expect(row.count == rows[0].count)
        // The live answer, and what `recognize` makes of the audio it was decoded from.
        let liveFlight = try String(contentsOf: features, encoding: .utf8).split(separator: "\n")[1].split(separator: "\t")[3]
        let again = try binary.run(["recognize", "--format", "jsonl", folder.appendingPathComponent(row[1]).path])
        let recognized = try #require(JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any])
        #expect(liveFlight == "LX40")
        #expect(recognized["flight"] as? String == String(liveFlight))
        #expect(try binary.run(["eval", "--live-audio", folder.path, manifest.path]).exitCode == 64, "--live-audio needs --live")
    }
}
