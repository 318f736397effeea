// swift-tools-version: 6.0
import PackageDescription

// The pipeline, inner to outer: FlightCore (pure) ← FlightStore, AudioInput, Recognizer, Presenter ← FlightVoiceCLI ← flightvoice.
// Each C library is a system-library target; only the module that wraps it imports it.

/// The neural model's Swift, optimised in debug builds too (see Whisper below).
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "FlightVoice",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flightvoice", targets: ["flightvoice"]),
        .library(name: "FlightCore", targets: ["FlightCore"]),
    ],
    targets: [
        // Pure domain: flight numbers, flights, airlines, the spoken-form normalizer, data-source protocols.
        .target(name: "FlightCore"),

        // SQLite-backed FlightsDataSource; the seed day (data/flights.sql) is embedded at build time.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "FlightStore", dependencies: ["FlightCore", "CSQLite"], plugins: ["EmbedResources"]),

        // The same FlightsDataSource on PostgreSQL (libpq), for a fleet sharing one schedule; and the choice between the two.
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "FlightStorePostgres", dependencies: ["FlightCore", "FlightStore", "CPostgres"]),
        .target(name: "FlightStoreSelection", dependencies: ["FlightCore", "FlightStore", "FlightStorePostgres"]),

        // Transcription jobs: the queue protocol and its SQLite store (the service's), and the fleet's PostgreSQL store.
        .target(name: "TranscriptionJobs", dependencies: ["FlightStore"]),
        .target(name: "TranscriptionJobsPostgres", dependencies: ["TranscriptionJobs", "FlightStore", "FlightStorePostgres"]),

        // Audio files and streams decoded to 16 kHz mono samples.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev"])]),
        .target(
            name: "AudioInput",
            dependencies: ["CSndFile", "CSoxr", "CFFmpeg"],
            linkerSettings: [.linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil"), .linkedLibrary("swresample")]
        ),

        // Live sound devices: ALSA capture and playback, speech synthesis with espeak-ng.
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .target(name: "AudioDevices", dependencies: ["AudioInput", "CALSA", "CEspeakNG"]),

        // PocketSphinx decoding, grammars built from today's flights, confidence and decisions.
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx", providers: [.apt(["libpocketsphinx-dev", "pocketsphinx-en-us"])]),
        // Noise suppression before decoding (AudioPreprocessor): SpeexDSP's preprocessor and our own spectral denoiser on FFTW.
        .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp", providers: [.apt(["libspeexdsp-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3", providers: [.apt(["libfftw3-dev"])]),
        // FFTW's planner is one per process: every module that plans holds this one lock.
        .target(name: "FFTWPlanner"),
        // WebRTC's audio processing is C++: a few C functions (WebRTCNoiseSuppression) let Swift own one.
        .systemLibrary(name: "CWebRTCAudioProcessing", pkgConfig: "webrtc-audio-processing", providers: [.apt(["libwebrtc-audio-processing-dev"])]),
        // (SwiftPM passes on the pkg-config include path but not its -D flags, so they are repeated here.)
        .target(name: "WebRTCNoiseSuppression", dependencies: ["CWebRTCAudioProcessing"],
                cxxSettings: [.define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD")]),
        // The neural acoustic model: Whisper tiny.en run in-process from CTranslate2's weights, its matrix products on our
        // own kernels (CVectorMath) and OpenBLAS. The kernels, the model's Swift and the candidates' walk are optimised in
        // debug builds too: at -O0 the intrinsics spill every accumulator and the Swift loops check every index, and the
        // tests that run the model (since the neural check disputes answers, nearly every recognition) would take
        // minutes more.
        .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        .target(name: "CVectorMath", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))], linkerSettings: [.linkedLibrary("m")]),
        .target(name: "Whisper", dependencies: ["COpenBLAS", "CFFTW", "FFTWPlanner", "CVectorMath"], swiftSettings: optimisedInDebug),
        .target(name: "Recognizer", dependencies: ["FlightCore", "AudioInput", "CPocketSphinx", "CSpeexDSP", "CFFTW", "FFTWPlanner", "WebRTCNoiseSuppression", "Whisper", "NeuralFlightScoring"], plugins: ["EmbedResources"]),

        // The neural pass's candidates and their scoring, independent of the model: Whisper's tokenizer, today's flights
        // written as Whisper writes them, their token prefix tree, and a beam walk of it with any next-token scorer.
        .target(name: "NeuralFlightScoring", dependencies: ["FlightCore"], swiftSettings: optimisedInDebug),

        // Rendering: terminal card, JSON, spoken sentence, JSON lines, Transcribe-compatible documents.
        .target(name: "Presenter", dependencies: ["FlightCore"]),

        // The full-screen terminal kiosk: microphone, live partial text, a big card, spoken answers.
        .target(name: "Kiosk", dependencies: ["FlightCore", "AudioDevices", "Recognizer", "Presenter"]),

        // Commands, argument parsing and exit codes; the executable is a thin shell over it.
        .target(name: "FlightVoiceCLI", dependencies: ["FlightCore", "FlightStore", "FlightStoreSelection", "AudioInput", "Recognizer", "Presenter", "AudioDevices", "Kiosk", "FlightVoiceServer", "FlightStorePostgres", "TranscriptionJobsPostgres", "ServiceNotification"],
                plugins: ["BuildRevision"]),
        .executableTarget(name: "flightvoice", dependencies: ["FlightVoiceCLI", "Whisper"]),

        // Flight lookups per second on SQLite and PostgreSQL (scripts/benchmark-lookups.sh).
        .executableTarget(name: "lookup-benchmark", dependencies: ["FlightCore", "FlightStore", "FlightStoreSelection"], path: "Benchmarks/lookup-benchmark"),

        // Jobs per second through the shared PostgreSQL queue with 1, 2 and 3 processes (scripts/benchmark-queue.sh).
        .executableTarget(name: "queue-benchmark", dependencies: ["FlightStorePostgres", "TranscriptionJobs", "TranscriptionJobsPostgres"], path: "Benchmarks/queue-benchmark"),

        // CPU per audio second of each noise suppressor (Benchmarks/denoise-benchmark).
        .executableTarget(name: "denoise-benchmark", dependencies: ["Recognizer", "AudioInput"], path: "Benchmarks/denoise-benchmark"),

        // Today's-grammar pass alone, against pocketsphinx_batch on the same grammar (scripts/benchmarks/make-benchmarks.py).
        .executableTarget(name: "decoder-benchmark", dependencies: ["Recognizer"], path: "Benchmarks/decoder-benchmark"),

        // Whisper's load, log-mel, encoder and decoder-step times on one BLAS thread (Benchmarks/whisper-benchmark).
        .executableTarget(name: "whisper-benchmark", dependencies: ["Whisper", "AudioInput"], path: "Benchmarks/whisper-benchmark"),

        // The HTTP service: a small HTTP layer on libmicrohttpd, the job store protocol with its SQLite backend, and the
        // service itself (native API, Transcribe's JSON protocol, the S3 subset with SigV4 on OpenSSL's libcrypto).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "FlightVoiceServer", dependencies: ["FlightCore", "FlightStore", "AudioInput", "Recognizer", "Presenter", "HTTPServer", "TranscriptionJobs", "CCrypto"]),
        // Telling systemd a Type=notify service is ready, alive (watchdog) and stopping: sd_notify from libsystemd.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "ServiceNotification", dependencies: ["CSystemd"]),

        // Build-time embedding of data/ and grammar/ files into the binary, so it runs from anywhere.
        .executableTarget(name: "embed-resources", path: "Plugins/embed-resources-tool"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
        // The git revision the binary is built from, for `flightvoice --version` ("unknown" from a tarball).
        .plugin(name: "BuildRevision", capability: .buildTool()),

        .testTarget(name: "FlightCoreTests", dependencies: ["FlightCore"]),
        .testTarget(name: "NeuralFlightScoringTests", dependencies: ["NeuralFlightScoring", "FlightStore"], resources: [.copy("Golden")]),
        // Helpers for tests on either store backend: throw-away PostgreSQL databases (FLIGHTVOICE_TEST_DATABASE), temporary files.
        .target(name: "DatabaseTestSupport", dependencies: ["FlightStore", "FlightStorePostgres", "FlightStoreSelection"], path: "Tests/DatabaseTestSupport"),
        .testTarget(name: "FlightStoreTests", dependencies: ["FlightStore", "FlightStorePostgres", "FlightStoreSelection", "DatabaseTestSupport"]),
        // Running a program to its end from a test (the fitting scripts, boto3, a second server).
        .target(name: "ProcessTestSupport", path: "Tests/ProcessTestSupport"),
        .testTarget(name: "AudioInputTests", dependencies: ["AudioInput"], resources: [.copy("Fixtures")]),
        .testTarget(name: "RecognizerTests", dependencies: ["Recognizer", "FlightStore", "NeuralFlightScoring", "Whisper", "ProcessTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "WhisperTests", dependencies: ["Whisper", "CVectorMath", "AudioInput", "ProcessTestSupport"]),
        .testTarget(name: "PresenterTests", dependencies: ["Presenter"], resources: [.copy("Golden")]),
        .testTarget(name: "TranscriptionJobsPostgresTests", dependencies: ["TranscriptionJobs", "TranscriptionJobsPostgres", "DatabaseTestSupport"]),
        .testTarget(name: "FlightVoiceCLITests", dependencies: ["FlightVoiceCLI", "DatabaseTestSupport"], exclude: ["Golden", "LiveFixtures"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "TranscriptionJobsTests", dependencies: ["TranscriptionJobs"]),
        // The installed product: man pages, shell completions, systemd units and sd_notify, `make install` and the Debian package.
        .testTarget(name: "PackagingTests", dependencies: ["FlightVoiceCLI", "ProcessTestSupport"]),
        .testTarget(name: "FlightVoiceServerTests", dependencies: ["FlightVoiceServer", "TranscriptionJobs", "TranscriptionJobsPostgres", "DatabaseTestSupport", "ProcessTestSupport"], exclude: ["Fixtures"]),
    ]
)
