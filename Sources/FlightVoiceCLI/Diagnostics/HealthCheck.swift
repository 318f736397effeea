import AudioDevices
import FlightCore
import FlightStore
import FlightStoreSelection
import Foundation
import Recognizer

/// One check `flightvoice doctor` makes: what it looked at, what it found, and what to do about it.
struct HealthCheck: Sendable {
    enum Outcome: String, Sendable {
        case ok = "ok"
        /// Works, but something is worth doing (an old schedule, an optional model missing).
        case warning = "warn"
        case failed = "FAIL"
    }

    let name: String
    let outcome: Outcome
    /// What was found, one line.
    let detail: String
    /// What to do, when anything.
    let advice: String?
    /// The exit code when this check failed.
    let exitCode: ExitCode
    /// Compact facts for the start-up log line (`model=stock`).
    let facts: [(key: String, value: String)]

    init(_ name: String, _ outcome: Outcome, _ detail: String, advice: String? = nil, exitCode: ExitCode = .success,
         facts: [(key: String, value: String)] = []) {
        self.name = name
        self.outcome = outcome
        self.detail = detail
        self.advice = advice
        self.exitCode = exitCode
        self.facts = facts
    }

    /// `ok    database    /x.sqlite: schema 1, 522 flights — do: …`.
    var line: String {
        outcome.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0) + name.padding(toLength: 14, withPad: " ", startingAt: 0)
            + detail + (advice.map { " — do: \($0)" } ?? "")
    }
}

/// The checks behind `doctor`, the start-up line of `kiosk` and `serve`, and `--version`.
enum Diagnostics {
    /// A schedule not changed for this long is probably not today's: doctor warns.
    static let staleScheduleSeconds: TimeInterval = 24 * 60 * 60
    /// Below this much free space in the data folder's file system, doctor fails (jobs and media cannot be stored).
    static let minimumFreeBytes: Int64 = 100 * 1024 * 1024
    /// Below this much, doctor warns.
    static let comfortableFreeBytes: Int64 = 1024 * 1024 * 1024
    /// The sample rate the speaker is opened at for its check (the synthesizer's).
    static let speakerCheckSampleRate = 16_000

    /// Which parts a caller wants checked.
    struct Scope: OptionSet, Sendable {
        let rawValue: Int
        static let models = Scope(rawValue: 1)
        static let database = Scope(rawValue: 2)
        static let devices = Scope(rawValue: 4)
        static let disk = Scope(rawValue: 8)
        static let all: Scope = [.models, .database, .devices, .disk]
    }

    /// Every check in `scope`, in the order doctor prints them.
    static func run(_ settings: EffectiveSettings, scope: Scope = .all) -> [HealthCheck] {
        var checks = [settingsCheck(settings)]
        if scope.contains(.models) { checks += modelChecks(settings) }
        if scope.contains(.database) { checks.append(databaseCheck(settings)) }
        if scope.contains(.devices) { checks += [microphoneCheck(settings), speakerCheck(settings)] }
        if scope.contains(.disk) { checks.append(diskCheck(settings)) }
        return checks
    }

    static func settingsCheck(_ settings: EffectiveSettings) -> HealthCheck {
        let file = settings.file
        let detail = file.exists ? "\(file.path): \(file.entries.count) setting(s)" : "\(file.path) not found: built-in defaults"
        let shadowed = settings.shadowed.isEmpty ? "" : "; " + settings.shadowed.joined(separator: "; ")
        return HealthCheck("settings", settings.shadowed.isEmpty ? .ok : .warning, detail + shadowed,
                           advice: settings.shadowed.isEmpty ? nil : "unset the variable, or remove the key from the file")
    }

    // MARK: Models

    static func modelChecks(_ settings: EffectiveSettings) -> [HealthCheck] {
        let chosen = settings[.model].value
        var checks: [HealthCheck] = []
        let stock = RecognizerConfiguration.stockAcousticModel
        let stockPresent = FileManager.default.fileExists(atPath: stock + "/mdef")
        checks.append(stockPresent
            ? HealthCheck("stock model", .ok, stock, facts: chosen == "stock" ? [("model", "stock")] : [])
            : HealthCheck("stock model", chosen == "stock" ? .failed : .warning, "\(stock)/mdef is missing",
                          advice: "apt-get install pocketsphinx-en-us", exitCode: .unavailable))
        if let adapted = RecognizerConfiguration.adaptedAcousticModel {
            checks.append(HealthCheck("adapted model", .ok, adapted, facts: chosen == "adapted" ? [("model", "adapted")] : []))
        } else {
            checks.append(HealthCheck(
                "adapted model", chosen == "adapted" ? .failed : .warning,
                "models/\(RecognizerConfiguration.adaptedModelName) is neither beside this program, in ../share/flightvoice/models, nor in its source tree (telephone audio is then decoded with the chosen model)",
                advice: "reinstall the package, or run make adapted-model in the source tree", exitCode: .unavailable))
        }
        let checking = settings.asksNeuralCheck
        if let neural = neuralModelFolder() {
            checks.append(HealthCheck("neural model", .ok, checking ? neural : "\(neural) (not asked: neural-check = off)",
                                      facts: [("neural-check", settings[.neuralCheck].value)]))
        } else {
            checks.append(HealthCheck(
                "neural model", checking ? .failed : .warning, "models/\(RecognizerConfiguration.neuralModelName) (\(RecognizerConfiguration.neuralModelFiles.joined(separator: ", "))) is neither beside this program, in ../share/flightvoice/models, nor in its source tree",
                advice: "reinstall the package, or run make neural-model in the source tree" + (checking ? " (or set neural-check = off)" : ""),
                exitCode: checking ? .unavailable : .success))
        }
        if let tuned = RecognizerConfiguration.bundledTunedDecoder {
            checks.append(HealthCheck("tuned decoder", .ok, checking ? tuned : "\(tuned) (not asked: neural-check = off)"))
        } else {
            checks.append(HealthCheck(
                "tuned decoder", checking ? .failed : .warning, "models/\(RecognizerConfiguration.tunedDecoderName)/\(RecognizerConfiguration.tunedDecoderFileName) is neither beside this program, in ../share/flightvoice/models, nor in its source tree",
                advice: "reinstall the package, or restore it from the source tree" + (checking ? " (or set neural-check = off)" : ""),
                exitCode: checking ? .unavailable : .success))
        }
        if !["stock", "adapted"].contains(chosen) {
            let source = settings[.model].source.description
            checks.append(FileManager.default.fileExists(atPath: chosen + "/mdef")
                ? HealthCheck("chosen model", .ok, "\(chosen) (\(source))", facts: [("model", chosen)])
                : HealthCheck("chosen model", .failed, "\(chosen) (\(source)) has no mdef: not an acoustic model folder",
                              advice: "set model to stock, adapted or a PocketSphinx model folder", exitCode: .unavailable))
        }
        return checks
    }

    /// `models/whisper-tiny.en`, looked for where the adapted model is; nil when none holds every file.
    static func neuralModelFolder() -> String? { RecognizerConfiguration.bundledNeuralModel }

    // MARK: Database

    /// The database's health without creating it: a named SQLite file must exist; the default may be absent.
    static func databaseCheck(_ settings: EffectiveSettings) -> HealthCheck {
        let location = DatabaseOptions.location(settings)
        let source = settings[.database].source.description
        var facts: [(key: String, value: String)] = [("database", location.description)]
        var age: TimeInterval?
        if case .sqlite(let path) = location {
            guard FileManager.default.fileExists(atPath: path) else {
                if settings.isGiven(.database) {
                    return HealthCheck("database", .failed, "\(path) (\(source)) does not exist",
                                       advice: "check the path, or create it: flightvoice db init --db \(path)", exitCode: .ioError, facts: facts)
                }
                return HealthCheck("database", .ok, "\(path) not created yet: made from the built-in day on first use", facts: facts)
            }
            age = scheduleAge(path: path)
        }
        do {
            let store = try location.open()
            let status = try store.status()
            facts += [("schema", String(status.schemaVersion)), ("flights", String(status.flights))]
            var detail = "\(location) (\(source)): schema \(status.schemaVersion), \(status.flights) flights"
            if case .postgres = location { detail += ", PostgreSQL reachable" }
            guard let age else { return HealthCheck("database", .ok, detail + ", schedule age unknown on PostgreSQL", facts: facts) }
            facts.append(("schedule_age", ageText(age).replacingOccurrences(of: " ", with: "")))
            detail += ", schedule changed \(ageText(age)) ago"
            if age > staleScheduleSeconds {
                return HealthCheck("database", .warning, detail, advice: "import today's schedule: flightvoice db import FILE.csv", facts: facts)
            }
            return HealthCheck("database", .ok, detail, facts: facts)
        } catch {
            let failure = CommandFailure(error)
            let advice = failure.exitCode == .databaseUnreachable
                ? "start PostgreSQL or check the URL's host, port, user and password"
                : "restore it from a backup, or recreate it: flightvoice db reset"
            return HealthCheck("database", .failed, "\(location) (\(source)): \(failure.message)", advice: advice, exitCode: failure.exitCode, facts: facts)
        }
    }

    /// Seconds since the SQLite file (or its write-ahead log) last changed, read before the file is opened.
    static func scheduleAge(path: String, now: Date = Date()) -> TimeInterval? {
        let changed = [path, path + "-wal"].compactMap { file in
            (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date
        }.max()
        return changed.map { max(0, now.timeIntervalSince($0)) }
    }

    /// "42 s", "5 min", "3 h", "2 days".
    static func ageText(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "\(Int(seconds)) s"
        case ..<3600: "\(Int(seconds / 60)) min"
        case ..<(2 * 86400): "\(Int(seconds / 3600)) h"
        default: "\(Int(seconds / 86400)) days"
        }
    }

    // MARK: Devices

    static func microphoneCheck(_ settings: EffectiveSettings) -> HealthCheck {
        let device = settings[.microphone].value
        guard device != "none" else { return HealthCheck("microphone", .ok, "not used (microphone = none)", facts: [("microphone", "none")]) }
        do {
            _ = try Microphone(device: device)
            return HealthCheck("microphone", .ok, "ALSA capture device '\(device)' opens", facts: [("microphone", "ok")])
        } catch {
            return HealthCheck("microphone", .failed, "ALSA capture device '\(device)': \(error.message)",
                               advice: "plug in the microphone, check arecord -L, or set microphone = none for keyboard only",
                               exitCode: .microphoneUnavailable, facts: [("microphone", "unavailable")])
        }
    }

    static func speakerCheck(_ settings: EffectiveSettings) -> HealthCheck {
        let device = settings[.speaker].value
        guard settings[.voice].value == "on" else { return HealthCheck("speaker", .ok, "not used (voice = off)", facts: [("speaker", "off")]) }
        do {
            _ = try Speaker(device: device, sampleRate: speakerCheckSampleRate)
            return HealthCheck("speaker", .ok, "ALSA playback device '\(device)' opens", facts: [("speaker", "ok")])
        } catch {
            return HealthCheck("speaker", .failed, "ALSA playback device '\(device)': \(error.message)",
                               advice: "check aplay -L and the speaker setting, or set voice = off",
                               exitCode: .microphoneUnavailable, facts: [("speaker", "unavailable")])
        }
    }

    // MARK: Disk

    static func diskCheck(_ settings: EffectiveSettings) -> HealthCheck {
        let data = settings[.data].value
        var folder = data
        while !FileManager.default.fileExists(atPath: folder), folder != "/", !folder.isEmpty {
            folder = (folder as NSString).deletingLastPathComponent
        }
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: folder))?[.systemFreeSize] as? NSNumber else {
            return HealthCheck("disk", .failed, "cannot read the free space of \(folder)", advice: "check the data setting", exitCode: .ioError)
        }
        let megabytes = free.int64Value / (1024 * 1024)
        let detail = "\(megabytes) MiB free for the data folder \(data)"
        let facts = [(key: "data_free_mib", value: String(megabytes))]
        switch free.int64Value {
        case ..<minimumFreeBytes:
            return HealthCheck("disk", .failed, detail, advice: "free space or move data elsewhere (jobs and media need room)", exitCode: .cannotBind, facts: facts)
        case ..<comfortableFreeBytes:
            return HealthCheck("disk", .warning, detail, advice: "free some space before it runs out", facts: facts)
        default:
            return HealthCheck("disk", .ok, detail, facts: facts)
        }
    }

    /// The one logfmt line `kiosk` and `serve` write at start: version, revision and the checks' compact facts.
    static func startLine(command: String, checks: [HealthCheck]) -> LogLine {
        var line = LogLine(event: "start")
        line.append("command", command)
        line.append("version", FlightVoiceCommand.version)
        line.append("revision", buildRevision)
        for check in checks {
            for fact in check.facts { line.append(fact.key, fact.value) }
        }
        let problems = checks.filter { $0.outcome != .ok }.map(\.name)
        line.append("problems", problems.isEmpty ? "none" : problems.joined(separator: ","))
        return line
    }
}

/// Where the acoustic models `--version` names are.
enum RecognizerModelPaths {
    static var stock: String { RecognizerConfiguration.stockAcousticModel }
    static var adapted: String? { RecognizerConfiguration.adaptedAcousticModel }
}
