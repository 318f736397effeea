import Foundation
import Testing

/// `listen` and the kiosk as a traveller uses them: clips played through a file-backed ALSA microphone in real time,
/// the kiosk driven and read through tmux, spoken answers written by a file-backed ALSA speaker.
/// The clips are our own (LiveFixtures/make-live-fixtures.sh: espeak-ng and sox -R).
@Suite(.serialized) struct LiveEndToEndTests {
    static func lines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test func listenOnceAnswersAClipAsRecognizeDoes() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let devices = try LiveSoundDevices(in: binary.folder, clips: ["swiss-forty"])
        let live = try binary.run(["listen", "--device", LiveSoundDevices.microphone, "--once", "--format", "jsonl"], environment: devices.environment)
        #expect(live.exitCode == 0, "\(live.standardError)")
        // Standard error (not a terminal here) gets the query's logfmt line and nothing else: alsa-lib's messages are silenced.
        let logLines = live.standardError.split(separator: "\n")
        #expect(logLines.count == 1 && logLines.first?.hasPrefix("event=query source=microphone status=found flight=LX40 heard=") == true,
                "\(live.standardError)")
        let events = try Self.lines(live.standardOutput)
        #expect(events.first?["event"] as? String == "speech_started")
        #expect(events.contains { $0["event"] as? String == "partial" })
        let final = try #require(events.last)
        #expect(final["event"] as? String == "final")

        let batch = try binary.run(["recognize", "--format", "jsonl", "--raw-rate", "16000", LiveSoundDevices.fixtures.appendingPathComponent("swiss-forty.raw").path])
        let recognized = try #require(try Self.lines(batch.standardOutput).first)
        #expect(final["flight"] as? String == "LX40")
        #expect(final["flight"] as? String == recognized["flight"] as? String)
        #expect(Set(final.keys) == Set(recognized.keys).union(["event"]), "final carries exactly recognize's fields")
    }

    @Test func listenWithoutAMicrophoneSaysSoAndExits71() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let devices = try LiveSoundDevices(in: binary.folder, clips: nil)
        let run = try binary.run(["listen", "--device", "nosuchmic", "--once"], environment: devices.environment)
        #expect(run.exitCode == 71)
        #expect(run.standardError == "flightvoice listen: microphone unavailable: no ALSA capture device 'nosuchmic' (No such file or directory); type your flight number instead\n")
    }

    @Test func aSpokenFlightShowsItsGateAndSpeaksIt() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let devices = try LiveSoundDevices(in: binary.folder, clips: ["swiss-forty"])
        let kiosk = try KioskSession(binary: binary, arguments: ["--device", LiveSoundDevices.microphone, "--speaker", LiveSoundDevices.speaker],
                                     environment: devices.environment)
        let card = try kiosk.waitFor { $0.contains("GATE E34") }
        #expect(card.contains("LX 40   Swiss   to New York (JFK)"), "\(card)")
        #expect(card.contains("GATE E34") && card.contains("Status: Boarding"))
        #expect(card.contains("This screen clears in"), "the card warns before it times out")

        // The voice: exactly espeak-ng's rendering of the sentence `ask --say` gives, which names the gate ("gate E 34").
        let sentence = try binary.run(["ask", "--say", "LX40"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(sentence.contains("from gate E 34"))
        // espeak-ng's program ends its file with 0.4 s of silence that the library does not produce: compare the sound.
        let expected = Self.withoutTrailingSilence(try Self.espeak(sentence, in: binary.folder))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, ((try? Data(contentsOf: devices.played))?.count ?? 0) < expected.count { Thread.sleep(forTimeInterval: 0.2) }
        let played = Self.withoutTrailingSilence(try Data(contentsOf: devices.played))
        #expect(played.count == expected.count, "the whole sentence was played")
        #expect(played == expected, "the speaker received the synthesized answer, sample for sample")
        let screen = try kiosk.waitFor(timeout: 10) { $0.contains("Microphone: ready") }
        #expect(screen.contains("Microphone: ready"), "capture resumes after speaking: \(screen)")

        try kiosk.send("C-c")
        let after = try kiosk.waitFor(timeout: 10) { $0.contains("kiosk exited with status 0") }
        #expect(after.contains("kiosk exited with status 0"), "Ctrl-C quits and restores the terminal: \(after)")
    }

    @Test func withoutAMicrophoneTypingWorksAndTheMicrophoneIsPickedUpWhenItComesBack() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let devices = try LiveSoundDevices(in: binary.folder, clips: nil)
        let kiosk = try KioskSession(binary: binary, arguments: ["--device", LiveSoundDevices.microphone, "--no-voice"], environment: devices.environment)
        let idle = try kiosk.waitFor { $0.contains("Microphone: unavailable") }
        #expect(idle.contains("Microphone: unavailable — type your flight number below"), "\(idle)")
        #expect(idle.contains("no ALSA capture device 'testmic'"))
        #expect(idle.contains("Say your flight number, like 'L X forty' or 'Swiss forty'"))
        #expect(idle.contains("flight information as of 12:00"))

        try kiosk.type("swiss forty")
        try kiosk.send("Enter")
        let card = try kiosk.waitFor { $0.contains("GATE") }
        #expect(card.contains("LX 40   Swiss   to New York (JFK)") && card.contains("GATE E34"), "\(card)")
        // Standard error, here a file as under systemd, gets the start line and one line per query.
        let log = try String(contentsOf: binary.folder.appendingPathComponent("kiosk-stderr.txt"), encoding: .utf8)
        #expect(log.hasPrefix("event=start command=kiosk version="), "\(log)")
        #expect(log.contains(" microphone=testmic speaker=off\n"), "\(log)")
        #expect(log.contains("\nevent=query source=keyboard status=found flight=LX40 heard=\"swiss forty\"\n"), "\(log)")

        try kiosk.send("Escape")
        let back = try kiosk.waitFor { $0.contains("Say your flight number") }
        #expect(!back.contains("GATE"), "Esc returns to the start: \(back)")

        // The microphone is plugged in: the kiosk notices without a restart.
        _ = try LiveSoundDevices(in: binary.folder, clips: ["cough"])
        let ready = try kiosk.waitFor { $0.contains("Microphone: ready") }
        #expect(ready.contains("Microphone: ready"), "\(ready)")
    }

    @Test func aGateChangedWhileItsCardIsShownReachesTheScreen() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let kiosk = try KioskSession(binary: binary, arguments: ["--no-microphone", "--no-voice"], environment: [:])
        _ = try kiosk.waitFor { $0.contains("Say your flight number") }
        try kiosk.type("LX40")
        try kiosk.send("Enter")
        let card = try kiosk.waitFor { $0.contains("GATE") }
        #expect(card.contains("GATE E34"), "\(card)")

        let changes = binary.folder.appendingPathComponent("gate-change.csv")
        try """
            flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares
            LX40,Swiss,departure,JFK,New York,13:05,13:05,E,E40,,boarding,

            """.write(to: changes, atomically: true, encoding: .utf8)
        #expect(try binary.run(["db", "import", changes.path]).exitCode == 0)
        let changed = try kiosk.waitFor(timeout: 10) { $0.contains("GATE E40") }
        #expect(changed.contains("GATE CHANGED: WAS E34, NOW E40"), "the card shows the change as such: \(changed)")
    }

    @Test func aDoubtfulQueryAsksAndASpokenYesAnswersIt() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let devices = try LiveSoundDevices(in: binary.folder, clips: ["lx-forty-banana", "yes"], gapSeconds: 2)
        let kiosk = try KioskSession(binary: binary, arguments: ["--device", LiveSoundDevices.microphone, "--no-voice"], environment: devices.environment)
        let question = try kiosk.waitFor { $0.contains("Did you mean") }
        #expect(question.contains("Did you mean LX 1411 from Belgrade? Say yes or no, or press Y or N."), "\(question)")
        let card = try kiosk.waitFor { $0.contains("BELT") }
        #expect(card.contains("LX 1411   Swiss   from Belgrade (BEG)") && card.contains("BELT 12"), "\(card)")
    }

    @Test func aDoubtfulQueryIsAnsweredByTheYKey() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let devices = try LiveSoundDevices(in: binary.folder, clips: ["lx-forty-banana"])
        let kiosk = try KioskSession(binary: binary, arguments: ["--device", LiveSoundDevices.microphone, "--no-voice"], environment: devices.environment)
        let question = try kiosk.waitFor { $0.contains("Did you mean") }
        #expect(question.contains("Did you mean LX 1411"), "\(question)")
        try kiosk.send("y")
        let card = try kiosk.waitFor { $0.contains("BELT") }
        #expect(card.contains("LX 1411") && card.contains("BELT 12"), "\(card)")
    }

    @Test func noiseAloneShowsNoCard() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let devices = try LiveSoundDevices(in: binary.folder, clips: ["cough", "cough"], gapSeconds: 1)
        let kiosk = try KioskSession(binary: binary, arguments: ["--device", LiveSoundDevices.microphone, "--no-voice"], environment: devices.environment)
        try kiosk.waitFor { $0.contains("Microphone: ready") }
        // The two bursts end 5.3 s after the microphone opens; the endpointer's longest wait is under a second.
        var screens: [String] = []
        let end = Date().addingTimeInterval(8)
        while Date() < end {
            screens.append(try kiosk.screen())
            Thread.sleep(forTimeInterval: 0.25)
        }
        #expect(screens.allSatisfy { !$0.contains("GATE") && !$0.contains("BELT") && !$0.contains("Did you mean") && !$0.contains("Sorry") })
        #expect(screens.last?.contains("Microphone: ready") == true, "\(screens.last ?? "")")
    }

    /// `samples` (16-bit little-endian) without the digital silence at their end.
    static func withoutTrailingSilence(_ samples: Data) -> Data {
        var end = samples.count & ~1
        while end >= 2, samples[samples.startIndex + end - 1] == 0, samples[samples.startIndex + end - 2] == 0 { end -= 2 }
        return samples.prefix(end)
    }

    /// What espeak-ng's own program makes of `text` with the kiosk's voice and speed, as raw 16-bit samples.
    static func espeak(_ text: String, in folder: URL) throws -> Data {
        let wave = folder.appendingPathComponent("expected.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", "en-us", "-s", "140", "-w", wave.path, text]
        try process.run()
        process.waitUntilExit()
        let data = try Data(contentsOf: wave)
        // A canonical 44-byte WAV header precedes the samples.
        return data.subdata(in: 44..<data.count)
    }
}
