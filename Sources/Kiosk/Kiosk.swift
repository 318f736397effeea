import AudioDevices
import FlightCore
import Foundation
import Presenter
import Recognizer

/// How the kiosk runs.
public struct KioskOptions: Sendable {
    /// The ALSA capture device; nil runs by keyboard only.
    public var microphone: String? = "default"
    /// The ALSA playback device for spoken answers; nil keeps the kiosk silent (`--no-voice`).
    public var speaker: String? = "default"
    /// How long a card stays up, in seconds, counting down on screen before it clears.
    public var cardSeconds = 20.0
    /// How much Space adds to a card's time, in seconds.
    public var extraSecondsOnRequest = 20.0
    /// How often the schedule is checked for changes, in seconds (a cheap read of its revision): a gate change reaches
    /// a card on screen within this time (the fleet promises 2 s from the desk's commit).
    public var schedulePollSeconds = 1.0
    /// How long to wait before trying an unavailable microphone again, in seconds.
    public var microphoneRetrySeconds = 2.0
    /// How often the screen is refreshed for the countdown, in seconds.
    public static let tickSeconds = 0.25
    /// A fixed "now" for answers (tests replay a moment); nil uses the clock.
    public var fixedNow: Date?
    /// When answers come from a local copy because the shared database is unreachable, the time that copy was taken
    /// (shown as the information's age); nil while answers are live. Unset for a local SQLite file.
    public var offlineCopyTakenAt: (@Sendable () -> Date?)?
    /// Receives one logfmt line per answered query (typed or spoken); nil logs nothing. It must not write to the
    /// terminal the kiosk draws on.
    public var queryLog: (@Sendable (LogLine) -> Void)?

    public init() {}
}

/// The full-screen kiosk: a traveller says or types a flight number and sees (and hears) its gate.
///
/// One loop owns all state: key presses, microphone events, voice activity and timer ticks arrive as `Input`s on one
/// stream and are handled in order, so no state is shared between tasks. Capture runs in its own task, recognition on
/// `LiveRecognitionService`'s thread, speech on `VoiceOutput`'s.
public final class Kiosk: Sendable {
    enum Input: Sendable {
        case key(KeyPress)
        case live(LiveEvent)
        case microphoneOpened
        case microphoneFailed(String)
        case voice(VoiceOutput.Activity)
        case tick
        case resize
        case quit
    }

    private let flights: any FlightsDataSource & ScheduleRevisionSource
    private let configuration: RecognizerConfiguration
    private let options: KioskOptions

    public init(flights: any FlightsDataSource & ScheduleRevisionSource, configuration: RecognizerConfiguration, options: KioskOptions) {
        self.flights = flights
        self.configuration = configuration
        self.options = options
    }

    /// Runs until Ctrl-C (or the end of input); the terminal is restored on the way out.
    public func run() async throws {
        let now = { [options] in options.fixedNow ?? Date() }
        var answerer = try SpokenQueryAnswerer(flights: flights, configuration: configuration, now: now())
        let service = try LiveRecognitionService(vocabulary: answerer.vocabulary, configuration: configuration)
        var revision = try? flights.scheduleRevision()

        let (inputs, sink) = AsyncStream.makeStream(of: Input.self)
        let terminal = Terminal()
        defer { terminal.restore() }
        let signals = SignalWatch(sink: sink)
        defer { signals.cancel() }

        let muted = StopFlag()
        let voice = options.speaker.map { device in VoiceOutput(device: device) { sink.yield(.voice($0)) } }
        defer { voice?.shutdown() }
        let keyboard = Task { for await key in Keyboard.keys() { sink.yield(.key(key)) } }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(KioskOptions.tickSeconds))
                sink.yield(.tick)
            }
        }
        let capture = options.microphone.map { device in
            Task { await Self.capture(device: device, service: service, muted: muted, retrySeconds: options.microphoneRetrySeconds, sink: sink) }
        }
        defer {
            keyboard.cancel()
            ticker.cancel()
            capture?.cancel()
        }

        var loadedAt = now()
        var shownFlight: FlightNumber?
        var state = KioskState(microphone: options.microphone == nil ? .off : .starting, dataAsOf: options.offlineCopyTakenAt?() ?? loadedAt,
                               voice: voice == nil ? "off" : "on")
        var lastPoll = Date()
        var spoken: String?
        let unicode = Self.localeIsUTF8()
        func presentation() -> PresentationOptions { PresentationOptions(now: now(), isTerminal: false) }
        func draw() {
            let size = terminal.size
            terminal.write(KioskScreen.render(state, now: Date(), columns: size.columns, rows: size.rows, unicode: unicode, options: presentation()))
        }
        func speak(_ text: String?) {
            spoken = text
            guard let text, let voice else { return }
            muted.set()
            voice.say(text)
        }
        func expectReply(_ expects: Bool) { Task { await service.expectReply(expects) } }
        func show(_ answer: QueryAnswer, decision: RecognitionDecision? = nil) {
            state.hearingOverCard = nil
            let options = presentation()
            if case .confirm = decision, let question = KioskText.confirmation(answer.suggestions) {
                state.body = .confirm(question: question, suggestions: answer.suggestions)
                speak(KioskText.spokenConfirmation(answer.suggestions))
                expectReply(true)
                return
            }
            switch answer.status {
            case .found:
                guard let lookup = answer.lookup else { fallthrough }
                shownFlight = lookup.requested
                state.body = .card(KioskText.card(lookup, options: options), until: Date().addingTimeInterval(self.options.cardSeconds))
                speak(SpokenAnswer.sentence(for: answer, options: options))
                expectReply(true)
            case .notFound:
                state.body = .notFound(lines: KioskText.notFound(answer, options: options), until: Date().addingTimeInterval(self.options.cardSeconds))
                speak(SpokenAnswer.sentence(for: answer, options: options))
                expectReply(false)
            case .notUnderstood, .noSpeech, .error:
                state.body = .idle(hint: "Sorry, that was not a flight number I know. Please try again.")
                speak(SpokenAnswer.sentence(for: answer, options: options))
                expectReply(false)
            }
        }
        func returnToIdle() {
            voice?.stop()
            state.body = .idle(hint: nil)
            state.hearingOverCard = nil
            expectReply(false)
        }
        func answerTyped(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return }
            if ["repeat", "again"].contains(trimmed.lowercased()) {
                speak(spoken)
                return
            }
            do {
                let answer = try answerer.resolver.answer(trimmed, now: now())
                self.options.queryLog?(.query(answer, source: "keyboard"))
                show(answer)
            } catch {
                state.body = .idle(hint: "The flight information cannot be read right now (\(error)). Please ask at the desk.")
            }
        }
        func confirm(_ yes: Bool) {
            guard case .confirm(_, let suggestions) = state.body else { return }
            voice?.stop()
            guard yes, let first = suggestions.first else {
                state.body = .idle(hint: "Sorry. Please say or type your flight number again.")
                expectReply(false)
                return
            }
            show(QueryAnswer(status: .found, heard: "yes", flightNumber: first.requested, candidates: [], lookup: first, suggestions: [], message: nil))
        }

        draw()
        for await input in inputs {
            switch input {
            case .quit, .key(.interrupt), .key(.endOfInput):
                return
            case .resize:
                terminal.write("\u{1B}[2J")
            case .tick:
                let current = Date()
                state.dataAsOf = options.offlineCopyTakenAt?() ?? loadedAt
                switch state.body {
                case .card(_, let until), .notFound(_, let until):
                    if current >= until { returnToIdle() }
                default: break
                }
                if current.timeIntervalSince(lastPoll) >= options.schedulePollSeconds {
                    lastPoll = current
                    if let latest = try? flights.scheduleRevision(), latest != revision {
                        revision = latest
                        if let fresh = try? SpokenQueryAnswerer(flights: flights, configuration: configuration, now: now()) {
                            answerer = fresh
                            loadedAt = now()
                            state.dataAsOf = options.offlineCopyTakenAt?() ?? loadedAt
                            Task { try? await service.load(fresh.vocabulary) }
                        }
                        // A card on screen shows the flight as it is now: a gate changed at the desk must not stay wrong.
                        if case .card(_, let until) = state.body, let shownFlight,
                           let current = try? flights.flight(shownFlight, near: now()) {
                            state.body = .card(KioskText.card(current, options: presentation()), until: until)
                        }
                    }
                }
            case .key(let key):
                voice?.stop()
                switch key {
                case .escape:
                    state.typed = ""
                    returnToIdle()
                case .enter:
                    let text = state.typed
                    state.typed = ""
                    answerTyped(text)
                case .backspace:
                    if !state.typed.isEmpty { state.typed.removeLast() }
                case .character(let character):
                    if case .confirm = state.body, state.typed.isEmpty, "yYnN".contains(character) {
                        confirm("yY".contains(character))
                    } else if character == " ", state.typed.isEmpty {
                        switch state.body {
                        case .card(let card, let until):
                            state.body = .card(card, until: until.addingTimeInterval(options.extraSecondsOnRequest))
                        case .notFound(let lines, let until):
                            state.body = .notFound(lines: lines, until: until.addingTimeInterval(options.extraSecondsOnRequest))
                        default: break
                        }
                    } else if state.typed.count < 40 {
                        state.typed.append(character)
                    }
                case .interrupt, .endOfInput:
                    return
                }
            case .microphoneOpened:
                if state.microphone != .paused { state.microphone = .ready }
            case .microphoneFailed(let reason):
                state.microphone = .unavailable(reason)
                if case .hearing = state.body { state.body = .idle(hint: nil) }
            case .voice(let activity):
                switch activity {
                case .started:
                    state.microphone = state.microphone == .off ? .off : .paused
                case .finished:
                    muted.clear()
                    if state.microphone == .paused { state.microphone = .ready }
                case .failed(let error):
                    muted.clear()
                    state.voice = "unavailable (\(error.message))"
                    if state.microphone == .paused { state.microphone = .ready }
                }
            case .live(let event):
                switch event {
                case .speechStarted:
                    state.microphone = .hearing
                case .partial(let text):
                    switch state.body {
                    case .idle, .hearing, .working: state.body = .hearing(partial: text)
                    default: state.hearingOverCard = text
                    }
                case .discarded:
                    state.microphone = .ready
                    state.hearingOverCard = nil
                    if case .hearing = state.body { state.body = .idle(hint: nil) }
                case .reply(let reply):
                    state.microphone = .ready
                    state.hearingOverCard = nil
                    switch (reply, state.body) {
                    case (.yes, .confirm): confirm(true)
                    case (.no, .confirm): confirm(false)
                    case (.repeatAnswer, _): speak(spoken)
                    default: break
                    }
                case .final(let utterance):
                    state.microphone = .ready
                    handleFinal(utterance.result)
                }
            }
            draw()
        }

        func handleFinal(_ result: RecognitionResult) {
            // Sounds that were not words (noise, an announcement the grammar found no path through) leave the
            // screen as it was: the kiosk only answers what sounds like a query.
            switch result.decision {
            case .noSpeech, .rejected(.noHypothesis):
                state.hearingOverCard = nil
                if case .hearing = state.body { state.body = .idle(hint: nil) }
                return
            default: break
            }
            do {
                let answer = try answerer.answer(for: result, now: now())
                self.options.queryLog?(.query(answer, source: "microphone", audioSeconds: result.audioDuration, decodeSeconds: result.decodeSeconds))
                show(answer, decision: result.decision)
            } catch {
                state.body = .idle(hint: "The flight information cannot be read right now. Please ask at the desk.")
            }
        }
    }

    /// Reads the microphone and feeds the recognizer, reopening the device after a failure. While the kiosk speaks,
    /// capture is muted: there is no echo canceller, and a kiosk's own voice reaches its microphone louder than a
    /// traveller, so anything heard then would be its own answer read back as a query. The utterance in progress is
    /// dropped when capture resumes.
    private static func capture(device: String, service: LiveRecognitionService, muted: StopFlag, retrySeconds: Double,
                                sink: AsyncStream<Input>.Continuation) async {
        while !Task.isCancelled {
            do {
                var opened = false
                var wasMuted = false
                for try await chunk in Microphone.chunks(device: device) {
                    if !opened {
                        opened = true
                        sink.yield(.microphoneOpened)
                    }
                    if muted.isSet {
                        wasMuted = true
                        continue
                    }
                    if wasMuted {
                        wasMuted = false
                        await service.reset()
                    }
                    for event in try await service.process(chunk) { sink.yield(.live(event)) }
                }
            } catch let error as AudioDeviceError {
                sink.yield(.microphoneFailed(error.microphoneMessage))
            } catch is CancellationError {
                return
            } catch {
                sink.yield(.microphoneFailed("microphone unavailable: \(error)"))
            }
            await service.reset()
            try? await Task.sleep(for: .seconds(retrySeconds))
        }
    }

    /// True when the locale's character set is UTF-8 (box and block characters can be drawn).
    static func localeIsUTF8() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LANG"] ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }
}

/// Turns SIGWINCH into a redraw and SIGTERM/SIGHUP into a clean quit (the terminal is restored on the way out).
/// Not `Sendable`: created and cancelled by the kiosk loop only.
final class SignalWatch {
    private let sources: [any DispatchSourceSignal]

    init(sink: AsyncStream<Kiosk.Input>.Continuation) {
        var sources: [any DispatchSourceSignal] = []
        for (signalNumber, input) in [(SIGWINCH, Kiosk.Input.resize), (SIGTERM, .quit), (SIGHUP, .quit), (SIGINT, .quit)] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { sink.yield(input) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() { sources.forEach { $0.cancel() } }
}
