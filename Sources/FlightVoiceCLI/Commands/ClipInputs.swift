import AudioInput
import FlightCore
import Foundation
import Recognizer

/// One clip to recognize: a file, standard input, or a path that could not be used (still reported, never dropped).
enum ClipInput: Sendable {
    case file(path: String)
    case standardInput(Data)
    case unusable(path: String, reason: String)

    /// The path as the user gave it ("-" for standard input).
    var path: String {
        switch self {
        case .file(let path), .unusable(let path, _): path
        case .standardInput: "-"
        }
    }
}

/// Expands command-line operands into clips: files as given, folders searched recursively for audio files.
enum ClipInputs {
    /// File name endings taken from folders (files named explicitly are tried whatever their ending).
    static let audioExtensions: Set<String> = ["wav", "wave", "flac", "ogg", "oga", "opus", "mp3", "m4a", "mp4", "aac", "raw", "pcm", "au", "aiff", "aif", "caf", "webm"]

    static func collect(_ operands: [String], readStandardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }) throws(UsageError) -> [ClipInput] {
        if operands.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "standard input (-) can be read only once") }
        var inputs: [ClipInput] = []
        for operand in operands {
            if operand == "-" {
                inputs.append(.standardInput(readStandardInput()))
                continue
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: operand, isDirectory: &isFolder) else {
                inputs.append(.unusable(path: operand, reason: "\(operand): no such file or folder"))
                continue
            }
            if isFolder.boolValue {
                let found = audioFiles(under: operand)
                if found.isEmpty { inputs.append(.unusable(path: operand, reason: "\(operand): the folder holds no audio files")) }
                inputs += found.map { .file(path: $0) }
            } else {
                inputs.append(.file(path: operand))
            }
        }
        return inputs
    }

    /// Audio files below `folder`, sorted by path so every run processes them in the same order.
    static func audioFiles(under folder: String) -> [String] {
        let base = URL(fileURLWithPath: folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [String] = []
        for case let url as URL in enumerator where audioExtensions.contains(url.pathExtension.lowercased()) {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            // Keep the user's spelling of the folder in the reported path.
            let relative = url.path.dropFirst(base.path.count).drop(while: { $0 == "/" })
            files.append(folder.hasSuffix("/") ? folder + relative : folder + "/" + relative)
        }
        return files.sorted()
    }
}

extension SpokenQueryAnswerer {
    /// Decodes and answers one command-line input.
    func report(for input: ClipInput, rawSampleRate: Int?, recognizer: FlightRecognizer) -> ClipReport {
        report(path: input.path, decode: {
            switch input {
            case .file(let path): return try AudioFileDecoder.decode(path: path, rawSampleRate: rawSampleRate)
            case .standardInput(let data): return try AudioFileDecoder.decode(data: data, name: "standard input", rawSampleRate: rawSampleRate)
            case .unusable(_, let reason): throw CommandFailure(message: reason, exitCode: .noInput)
            }
        }, recognizer: recognizer)
    }
}
