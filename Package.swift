// swift-tools-version: 6.0
import PackageDescription

// The pipeline, inner to outer: FlightCore (pure) ← FlightStore, AudioInput, Recognizer, Presenter ← FlightVoiceCLI ← flightvoice.
// Each C library is a system-library target; only the module that wraps it imports it.
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
        .target(name: "Recognizer", dependencies: ["FlightCore", "AudioInput", "CPocketSphinx"], plugins: ["EmbedResources"]),

        // Rendering: terminal card, JSON, spoken sentence, JSON lines, Transcribe-compatible documents.
        .target(name: "Presenter", dependencies: ["FlightCore"]),

        // The full-screen terminal kiosk: microphone, live partial text, a big card, spoken answers.
        .target(name: "Kiosk", dependencies: ["FlightCore", "AudioDevices", "Recognizer", "Presenter"]),

        // Commands, argument parsing and exit codes; the executable is a thin shell over it.
        .target(name: "FlightVoiceCLI", dependencies: ["FlightCore", "FlightStore", "AudioInput", "AudioDevices", "Recognizer", "Presenter", "Kiosk"]),
        .executableTarget(name: "flightvoice", dependencies: ["FlightVoiceCLI"]),

        // Build-time embedding of data/ and grammar/ files into the binary, so it runs from anywhere.
        .executableTarget(name: "embed-resources", path: "Plugins/embed-resources-tool"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),

        .testTarget(name: "FlightCoreTests", dependencies: ["FlightCore"]),
        .testTarget(name: "FlightStoreTests", dependencies: ["FlightStore"]),
        .testTarget(name: "AudioInputTests", dependencies: ["AudioInput"], resources: [.copy("Fixtures")]),
        .testTarget(name: "RecognizerTests", dependencies: ["Recognizer", "FlightStore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PresenterTests", dependencies: ["Presenter"], resources: [.copy("Golden")]),
        .testTarget(name: "FlightVoiceCLITests", dependencies: ["FlightVoiceCLI"], exclude: ["Golden", "LiveFixtures"]),
    ]
)
