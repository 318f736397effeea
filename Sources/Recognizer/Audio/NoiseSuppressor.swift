import Foundation

/// Which noise suppressor runs before decoding (`RecognizerConfiguration.preprocessor`), and its settings: the CLI's
/// `--denoise NAME[:KEY=VALUE,...]`, e.g. `spectral`, `speex:suppress=-25`, `spectral:floor=-20,overestimate=1.5`.
public struct NoiseSuppressor: Sendable, Hashable, CustomStringConvertible {
    /// The suppressors there are.
    public enum Kind: String, CaseIterable, Sendable {
        /// No noise suppression: the audio is decoded as it came.
        case none
        /// SpeexDSP's preprocessor (`SpeexDenoiser`).
        case speex
        /// Our Wiener filter on FFTW (`SpectralDenoiser`).
        case spectral
        /// WebRTC's noise suppressor (`WebRTCDenoiser`).
        case webrtc
    }

    /// Which suppressor.
    public var kind: Kind
    /// Settings that differ from the chosen ones, by key (see `keys`), in the order given.
    public var overrides: [String: Double]

    /// No suppression.
    public static let none = NoiseSuppressor(kind: .none)
    /// SpeexDSP's preprocessor at its chosen settings.
    public static let speex = NoiseSuppressor(kind: .speex)
    /// The spectral Wiener filter at its chosen settings.
    public static let spectral = NoiseSuppressor(kind: .spectral)
    /// WebRTC's noise suppressor at its chosen settings.
    public static let webrtc = NoiseSuppressor(kind: .webrtc)

    /// A suppressor of `kind` with `overrides`.
    public init(kind: Kind, overrides: [String: Double] = [:]) {
        self.kind = kind
        self.overrides = overrides
    }

    /// The setting keys each suppressor takes.
    public static func keys(of kind: Kind) -> [String] {
        switch kind {
        case .none: []
        case .speex: ["suppress", "frame", "prime"]
        case .spectral: ["floor", "smoothing", "quiet", "overestimate", "frame"]
        case .webrtc: ["level", "prime"]
        }
    }

    /// Parses `NAME[:KEY=VALUE,...]`; the error says what is accepted.
    public init(parsing text: String) throws(NoiseSuppressorSyntaxError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first, let kind = Kind(rawValue: name) else {
            throw NoiseSuppressorSyntaxError(message: "--denoise takes one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        var overrides: [String: Double] = [:]
        for pair in parts.count > 1 ? parts[1].split(separator: ",") : [] {
            let keyValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard keyValue.count == 2, Self.keys(of: kind).contains(keyValue[0]), let value = Double(keyValue[1]) else {
                throw NoiseSuppressorSyntaxError(message: "--denoise \(kind.rawValue) takes settings \(Self.keys(of: kind).map { "\($0)=NUMBER" }.joined(separator: ", ")), not '\(pair)'")
            }
            overrides[keyValue[0]] = value
        }
        self.init(kind: kind, overrides: overrides)
    }

    public var description: String {
        overrides.isEmpty ? kind.rawValue
            : kind.rawValue + ":" + overrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// The preprocessor this names; throws the C library's refusal of a setting.
    public func makePreprocessor() throws -> any AudioPreprocessor {
        switch kind {
        case .none:
            return IdentityPreprocessor()
        case .speex:
            let chosen = try SpeexDenoiser()
            return try SpeexDenoiser(frameSamples: overrides["frame"].map { Int($0) } ?? chosen.frameSamples,
                                     noiseSuppressDecibels: overrides["suppress"].map { Int($0) } ?? chosen.noiseSuppressDecibels,
                                     primesNoiseEstimate: overrides["prime"].map { $0 != 0 } ?? chosen.primesNoiseEstimate)
        case .spectral:
            var settings = SpectralDenoiser.Settings()
            if let value = overrides["floor"] { settings.gainFloorDecibels = value }
            if let value = overrides["smoothing"] { settings.priorSmoothing = value }
            if let value = overrides["quiet"] { settings.quietFraction = value }
            if let value = overrides["overestimate"] { settings.noiseOverestimate = value }
            if let value = overrides["frame"] { settings.frameSamples = Int(value) }
            return try SpectralDenoiser(settings: settings)
        case .webrtc:
            let chosen = try WebRTCDenoiser()
            return try WebRTCDenoiser(level: overrides["level"].map { Int($0) } ?? chosen.level,
                                      primesNoiseEstimate: overrides["prime"].map { $0 != 0 } ?? chosen.primesNoiseEstimate)
        }
    }
}

/// A `--denoise` value that names no suppressor or a setting it does not take.
public struct NoiseSuppressorSyntaxError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what is accepted.
    public var message: String
    public var description: String { message }
}
