import FlightCore
import FlightStoreSelection
import FlightStorePostgres
import FlightVoiceServer
import Foundation
import HTTPServer
import ServiceNotification
import TranscriptionJobsPostgres

/// `flightvoice serve`: parses its options and runs the HTTP service until SIGTERM or SIGINT.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the HTTP service: native API, Transcribe's JSON protocol and S3 on one port"
    static let usage = "flightvoice serve [--host ADDRESS] [--port N] [--data DIR] [--workers N] [--database URL] [--token-file FILE] [--aws-credentials FILE]"
    static let options: [OptionSpec] = [
        .value("--host", valueName: "ADDRESS", help: "IP address to listen on (setting `host`; default 127.0.0.1: this machine only)."),
        .value("--port", "-p", valueName: "N", help: "TCP port (setting `port`; default 8080; 0 picks a free one and prints it)."),
        .value("--data", valueName: "DIR", help: "Data folder: flights, jobs, media, transcripts, S3 objects, secrets (setting `data`; default $XDG_DATA_HOME/flightvoice)."),
        .value("--workers", "-j", valueName: "N", help: "Recognition workers, one recognizer each (setting `workers`; default: one per core)."),
        CommonOptions.sharedDatabase,
        .value("--token-file", valueName: "FILE", help: "Bearer token for flight updates (setting `token-file`; default DATA/api-token, generated at first start)."),
        .value("--aws-credentials", valueName: "FILE", help: "AWS credentials file SigV4 requests are checked against (setting `aws-credentials`; default DATA/aws-credentials, generated)."),
        .value("--drain-seconds", valueName: "N", help: "On SIGTERM, how long decodes in progress may finish (default 30)."),
        .value("--max-body-mb", valueName: "N", help: "Largest request body in MiB; larger gets 413 (default 64)."),
        .value("--max-queued-jobs", valueName: "N", help: "Queued jobs before new ones get 503 with Retry-After (default 1000)."),
        .value("--lease-seconds", valueName: "N", help: "How long a worker's claim on a job lasts unless renewed; a dead server's jobs go to another after it (default 60)."),
        .value("--callback-timeout", valueName: "SECONDS", help: "How long a callback POST may take before it counts as failed and is retried (default 10)."),
        .value("--idle-timeout", valueName: "SECONDS", help: "Close connections idle this long, including clients stalled mid-request (default 30)."),
        RecognizerOptions.model, RecognizerOptions.crossCheck, RecognizerOptions.noNeuralCheck, RecognizerOptions.dictionary,
    ]
    static let discussion = """
    Logs go to standard error, one logfmt line (key=value) per event: "event=start …" with what doctor checks,
    "event=request method=… path=… route=… status=… duration_ms=…" per request, and "event=stopping", "event=stopped
    drained=yes|no" on SIGTERM. logfmt because journald keeps one entry per line and grep finds fields without a
    parser; no line holds a header, a token, a query string or audio.
    The API is described in docs/openapi.yaml. Once the port is bound, standard output gets "listening on http://HOST:PORT".
    AWS clients need only AWS_SHARED_CREDENTIALS_FILE=DATA/aws-credentials and endpoint_url=http://HOST:PORT.
    With --database postgres://… (or FLIGHTVOICE_DATABASE), flights, the job queue, job media, transcripts and S3 objects
    live in PostgreSQL, so several servers (each with its own --data for its secrets; give them the same --token-file and
    --aws-credentials) share one schedule, one queue and one object store.

    exit codes: 0 stopped by SIGTERM/SIGINT · 64 usage · 69 speech model unusable · 73 cannot bind the address · 74 data folder unusable · 76 database server unreachable
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "serve takes no file arguments") }
        let settings = context.settings
        var configuration = ServiceConfiguration(dataFolder: settings[.data].value)
        let host = SettingKey.hostAddress(settings[.host].value)
        guard isIPAddressLiteral(host) else { throw UsageError(message: "--host takes an IP address such as 127.0.0.1 or ::1, not '\(host)'") }
        configuration.http.host = host
        configuration.http.port = UInt16(try settings.integer(.port, in: SettingKey.portRange))
        configuration.workers = try settings.integer(.workers, in: SettingKey.workerRange)
        // Unset, the secrets are generated in the data folder at first start.
        configuration.tokenFile = settings.isGiven(.tokenFile) ? settings[.tokenFile].value : nil
        configuration.credentialsFile = settings.isGiven(.awsCredentials) ? settings[.awsCredentials].value : nil
        configuration.drainSeconds = Double(try arguments.integer("drain-seconds", in: 0...3600) ?? 30)
        configuration.http.maximumBodyBytes = (try arguments.integer("max-body-mb", in: 1...4096) ?? 64) * 1024 * 1024
        configuration.maximumQueuedJobs = try arguments.integer("max-queued-jobs", in: 1...1_000_000) ?? configuration.maximumQueuedJobs
        configuration.http.idleTimeoutSeconds = UInt32(try arguments.integer("idle-timeout", in: 1...3600) ?? Int(configuration.http.idleTimeoutSeconds))
        configuration.leaseSeconds = Double(try arguments.integer("lease-seconds", in: 1...3600) ?? Int(configuration.leaseSeconds))
        configuration.callbackTimeoutSeconds = Double(try arguments.integer("callback-timeout", in: 1...300) ?? Int(configuration.callbackTimeoutSeconds))
        configuration.recognizer = try RecognizerOptions.configuration(arguments, settings: context.settings)
        let console = context.console
        configuration.requestLog = { line in console.printError(line) }
        if let fixed = context.environment["FLIGHTVOICE_NOW"], !fixed.isEmpty {
            let now = context.now
            configuration.now = { now }
        }
        if let file = configuration.tokenFile, !FileManager.default.fileExists(atPath: file) {
            throw CommandFailure(message: "the token file \(file) (\(settings[.tokenFile].source.description)) does not exist", exitCode: .noInput)
        }
        if let file = configuration.credentialsFile, !FileManager.default.fileExists(atPath: file) {
            throw CommandFailure(message: "the AWS credentials file \(file) (\(settings[.awsCredentials].source.description)) does not exist", exitCode: .noInput)
        }

        // Signals are handled on a queue, not by the default action: SIGTERM drains instead of killing.
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }

        let service: FlightVoiceService
        let location: FlightDatabaseLocation?
        do {
            // Only a database named for this purpose (flag, settings file, FLIGHTVOICE_DATABASE) replaces the data
            // folder's own flights.sqlite: FLIGHTVOICE_DB names the command-line tools' file.
            switch settings[.database].source {
            case .builtIn, .environment(FlightDatabaseLocationNames.pathVariable): location = nil
            default:
                location = DatabaseOptions.location(settings)
                try DatabaseOptions.requireExisting(location!, settings: settings)
            }
            service = try FlightVoiceService(configuration: configuration) { folder in try backend(location, folder: folder) }
        } catch let error as ServiceSetupError {
            throw CommandFailure(message: error.message, exitCode: .ioError)
        }
        for note in service.startupNotes { context.console.print(note) }
        // One line with what doctor would check (but the sound devices, which the service does not use).
        let served = location != nil ? settings
            : settings.replacing(.database, with: ResolvedSetting(value: DataFolder.flightsDatabase(in: configuration.dataFolder), source: .builtIn))
        context.console.printError(Diagnostics.startLine(command: name, checks: Diagnostics.run(served, scope: [.models, .database, .disk])).description)
        let port: UInt16
        do {
            port = try service.start()
        } catch let error as HTTPServerError {
            throw CommandFailure(message: error.message, exitCode: .cannotBind)
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        context.console.print("listening on http://\(shownHost):\(port)")
        let systemd = ServiceNotifier()
        systemd.ready(status: "listening on http://\(shownHost):\(port)")
        stop.wait()
        systemd.stopping(status: "draining decodes in progress")
        // Logfmt like the request lines: a drain that ran out of time is one grep away (drained=no).
        context.console.printError(LogLine(event: "stopping").with("drain_seconds", String(Int(configuration.drainSeconds))).description)
        let drained = service.drain(deadline: Date().addingTimeInterval(configuration.drainSeconds))
        context.console.printError(LogLine(event: "stopped").with("drained", drained ? "yes" : "no")
            .with("note", drained ? nil : "decodes still running at the deadline; their jobs resume at the next start").description)
        withExtendedLifetime(sources) {}
        return .success
    }

    /// The data folder's own SQLite stores, unless a database is named: a SQLite file then holds the flights, and a
    /// PostgreSQL database the flights, the shared job queue, the job files and the S3 objects.
    private static func backend(_ named: FlightDatabaseLocation?, folder: DataFolder) throws -> ServiceBackend {
        switch named {
        case .postgres(let url)?:
            let jobs = try PostgresJobStore(url: url)
            let partials = try PostgresJobPartials(url: url)
            return ServiceBackend(flights: try FlightDatabaseLocation.postgres(url: url).open(), jobs: jobs, jobFiles: try PostgresJobFiles(url: url),
                                  objects: try PostgresObjectStore(url: url), jobChanges: { jobs.jobChanges() },
                                  partials: JobPartialsRelay(announce: partials.announce(job:transcript:), othersPartials: partials.othersPartials),
                                  sharedByServers: true)
        case let named?:
            var backend = try ServiceBackend.dataFolder(folder)
            backend.flights = try named.open()
            return backend
        case nil:
            return try ServiceBackend.dataFolder(folder)
        }
    }
}
