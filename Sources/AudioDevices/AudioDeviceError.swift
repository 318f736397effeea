import Foundation

/// Why a sound device or the speech synthesizer failed: the operation, the device, ALSA's (or espeak-ng's) code and
/// its own message.
public struct AudioDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What a front end can do about it.
    public enum Kind: Sendable, Equatable {
        /// The device does not exist, is busy, or went away (unplugged): keep working without it and try again later.
        case unavailable
        /// The device refused a setting or failed mid-stream in a way that retrying will not fix.
        case failed
    }

    public var kind: Kind
    /// The C call that failed, e.g. "snd_pcm_open" or "espeak_Initialize".
    public var operation: String
    /// The ALSA device name, e.g. "default", or the voice.
    public var device: String
    /// The C return code (negative errno for ALSA).
    public var code: Int32
    /// The library's own message, e.g. "No such file or directory".
    public var message: String

    public init(kind: Kind, operation: String, device: String, code: Int32, message: String) {
        self.kind = kind
        self.operation = operation
        self.device = device
        self.code = code
        self.message = message
    }

    public var description: String { "\(operation) on '\(device)' failed (\(code)): \(message)" }
}

extension AudioDeviceError {
    /// The one line a traveller or operator sees when the microphone cannot be used, with what to do instead.
    public var microphoneMessage: String {
        let what: String
        switch -code {
        case ENOENT, ENODEV, ENXIO: what = "no ALSA capture device '\(device)'"
        case EBUSY: what = "the ALSA capture device '\(device)' is busy"
        default: what = "the ALSA capture device '\(device)' failed in \(operation)"
        }
        return "microphone unavailable: \(what) (\(message)); type your flight number instead"
    }
}
