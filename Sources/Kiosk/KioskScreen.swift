import FlightCore
import Foundation
import Presenter

/// Everything the kiosk shows. A value: the loop changes it, `KioskScreen.render` draws it.
struct KioskState: Sendable {
    /// What the microphone is doing, said in words on every screen.
    enum Microphone: Sendable, Equatable {
        case starting, ready, hearing, working
        /// Capture is muted while the kiosk speaks.
        case paused
        case unavailable(String)
        /// Started with no microphone asked for.
        case off

        var words: String {
            switch self {
            case .starting: "starting…"
            case .ready: "ready — say your flight number"
            case .hearing: "listening…"
            case .working: "working…"
            case .paused: "paused while the kiosk speaks (any key stops it)"
            case .unavailable: "unavailable — type your flight number below"
            case .off: "off — type your flight number below"
            }
        }
    }

    /// The main part of the screen.
    enum Body: Sendable {
        /// The prompt; `hint` after a query that was not understood.
        case idle(hint: String?)
        /// Speech is coming in; the words so far.
        case hearing(partial: String)
        case working
        /// A found flight; clears at `until`.
        case card(KioskText.Card, until: Date)
        /// "Did you mean…?" waiting for yes or no.
        case confirm(question: String, suggestions: [FlightLookup])
        /// No such flight, with suggestions; clears at `until`.
        case notFound(lines: [String], until: Date)
    }

    var body: Body = .idle(hint: nil)
    var microphone: Microphone = .starting
    var typed = ""
    var dataAsOf: Date
    var voice: String
    /// The words heard while a card is shown (speaking a new query over it).
    var hearingOverCard: String?
}

/// Draws a `KioskState` as a full terminal screen. Pure: the same state and size give the same text.
///
/// Nothing is carried by colour: the card is inverse video and bold, statuses and gate changes are words.
enum KioskScreen {
    /// Text drawn with ANSI sequences (cursor home, one row per line, each cleared to the end).
    static func render(_ state: KioskState, now: Date, columns: Int, rows: Int, unicode: Bool, options: PresentationOptions) -> String {
        let lines = self.lines(state, now: now, columns: columns, rows: rows, unicode: unicode, options: options)
        var out = "\u{1B}[H"
        for (index, line) in lines.enumerated() {
            out += "\u{1B}[\(index + 1);1H" + (unicode ? line : plain(line)) + "\u{1B}[0m\u{1B}[K"
        }
        return out
    }

    /// The screen's rows as text with styles (exactly `rows` rows, each at most `columns` visible characters).
    static func lines(_ state: KioskState, now: Date, columns: Int, rows: Int, unicode: Bool, options: PresentationOptions) -> [String] {
        let width = max(20, columns)
        let rule = String(repeating: unicode ? "─" : "-", count: width)
        let title = " FlightVoice · flight information"
        let asOf = "flight information as of \(KioskText.clock(state.dataAsOf)) "
        var top = [bold(spread(title, asOf, width: width)), rule]
        var body = bodyLines(state, now: now, width: width, unicode: unicode, options: options)
        let footer = [
            rule,
            spread(" Microphone: \(state.microphone.words)", "Voice: \(state.voice) ", width: width),
            fit(" Type: \(state.typed)" + (unicode ? "▏" : "_"), width: width),
            fit(" Enter: look up · Esc: start over · Ctrl-C: quit", width: width),
        ]
        let room = max(0, rows - top.count - footer.count)
        if case .unavailable(let reason) = state.microphone { body += [""] + wrapped(reason, width: width - 4).map { "  " + $0 } }
        body = Array(body.prefix(room))
        body += Array(repeating: "", count: room - body.count)
        top += body
        return Array((top + footer).prefix(rows))
    }

    private static func bodyLines(_ state: KioskState, now: Date, width: Int, unicode: Bool, options: PresentationOptions) -> [String] {
        switch state.body {
        case .idle(let hint):
            var lines = [""]
            if let hint { lines += [bold("  " + fit(hint, width: width - 2)), ""] }
            lines += [
                bold("  " + fit(KioskText.prompt(options) + ".", width: width - 2)),
                "",
                "  Other ways to say it:",
            ] + options.example.phrases.map { "    \"\($0)\"" } + [
                "    \"what's the gate for B A two eight seven\"",
                "",
                "  Or type it below and press Enter, like LX40.",
            ]
            return lines
        case .hearing(let partial):
            return ["", bold("  Listening…"), "", "  " + fit("“" + partial + "”", width: width - 4)]
        case .working:
            return ["", bold("  Looking up your flight…")]
        case .card(let card, let until):
            return cardLines(card, state: state, remaining: remainingSeconds(until, now: now), width: width, unicode: unicode)
        case .confirm(let question, let suggestions):
            let others = suggestions.dropFirst().map { "\($0.requested.display) \($0.flight.direction == .departure ? "to" : "from") \($0.flight.airport.city)" }
            return ["", inverse(" " + fit(question, width: width - 4) + " "), ""]
                + (others.isEmpty ? [] : ["  " + fit("Not that one? It may also be " + others.joined(separator: " or ") + ": say or type it.", width: width - 2)])
                + ["  Esc starts over."]
        case .notFound(let lines, let until):
            return [""] + lines.map { "  " + fit($0, width: width - 2) } + [
                "", "  Please say or type the flight number again.",
                "  " + countdown(remainingSeconds(until, now: now)),
            ]
        }
    }

    private static func cardLines(_ card: KioskText.Card, state: KioskState, remaining: Int, width: Int, unicode: Bool) -> [String] {
        let inner = width - 4
        var lines = [""]
        lines.append("  " + inverse(bold(" " + fit("\(card.flight)   \(card.airline)   \(card.route)", width: inner - 2).padded(to: inner - 2) + " ")))
        lines.append("  " + spread(card.time, "Status: \(card.status)", width: inner))
        if let terminal = card.terminal { lines.append("  " + terminal) }
        if let codeshare = card.codeshare { lines.append("  " + fit(codeshare, width: inner)) }
        lines.append("")
        if let place = card.place {
            // The gate in plain text too: screen readers and terminal captures read text, not block letters.
            lines.append("  " + bold("\(card.placeLabel) \(place)"))
            lines += BigText.rows(place, unicode: unicode).map { "  " + bold(fit($0, width: inner)) }
        } else {
            lines.append("  " + bold("\(card.placeLabel): not yet assigned"))
        }
        if let change = card.change { lines.append("  " + inverse(bold(" " + change.uppercased() + " "))) }
        lines.append("")
        if let heard = state.hearingOverCard {
            lines.append("  Heard: “\(fit(heard, width: inner - 10))”")
        } else {
            lines.append("  Say \"repeat\" or type repeat to hear it again.")
        }
        lines.append("  " + countdown(remaining))
        return lines
    }

    /// "This screen clears in 12 s — press Space to keep it." (the warning before the timeout).
    static func countdown(_ seconds: Int) -> String {
        "This screen clears in \(seconds) s — press Space to keep it, Esc to start over."
    }

    /// Replacements for the punctuation the screens use, where the terminal is not UTF-8.
    static let asciiPunctuation: [Character: String] = ["…": "...", "—": "-", "·": "|", "“": "\"", "”": "\"", "→": "->", "←": "<-", "▏": "_"]

    /// `line` in ASCII: the screens' punctuation replaced, accents dropped ("Zürich" → "Zurich"), anything else `?`.
    static func plain(_ line: String) -> String {
        var out = ""
        for character in line {
            if character.isASCII { out.append(character); continue }
            if let replacement = asciiPunctuation[character] { out += replacement; continue }
            let folded = String(character).folding(options: .diacriticInsensitive, locale: nil)
            out += folded.allSatisfy(\.isASCII) ? folded : "?"
        }
        return out
    }

    private static func remainingSeconds(_ until: Date, now: Date) -> Int { max(0, Int(until.timeIntervalSince(now).rounded(.up))) }

    private static func bold(_ text: String) -> String { "\u{1B}[1m" + text + "\u{1B}[22m" }
    private static func inverse(_ text: String) -> String { "\u{1B}[7m" + text + "\u{1B}[27m" }

    /// `text` broken into lines of at most `width` characters at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { fit($0, width: width) }
    }

    /// `text` cut to `width` characters (an ellipsis marks the cut).
    static func fit(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }

    /// `left` and `right` on one line of `width`, right-aligned; `left` is cut when both do not fit.
    static func spread(_ left: String, _ right: String, width: Int) -> String {
        let room = width - right.count - 1
        guard room > 0 else { return fit(left, width: width) }
        return fit(left, width: room).padded(to: room) + " " + right
    }
}

extension String {
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
