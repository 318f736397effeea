import Foundation
import Testing
@testable import Whisper

/// Reading CTranslate2's binary format: values, conversions and the typed errors for broken files.
struct CTranslate2ModelFileTests {
    /// A model file written by hand: version, specification, variables (name, shape, type code, bytes), aliases.
    struct FileBuilder {
        var bytes: [UInt8] = []

        mutating func uint8(_ value: UInt8) { bytes.append(value) }
        mutating func uint16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        mutating func uint32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        mutating func string(_ value: String) {
            let utf8 = Array(value.utf8) + [0]
            uint16(UInt16(utf8.count))
            bytes += utf8
        }
        mutating func variable(_ name: String, shape: [UInt32], type: UInt8, data: [UInt8]) {
            string(name)
            uint8(UInt8(shape.count))
            shape.forEach { uint32($0) }
            uint8(type)
            uint32(UInt32(data.count))
            bytes += data
        }

        static func header(version: UInt32 = 6, specification: String = "WhisperSpec", variableCount: UInt32) -> FileBuilder {
            var builder = FileBuilder()
            builder.uint32(version)
            builder.string(specification)
            builder.uint32(3)
            builder.uint32(variableCount)
            return builder
        }
    }

    static func bytes(of values: [Float16]) -> [UInt8] { values.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } } }
    static func bytes(of values: [Float]) -> [UInt8] { values.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } } }

    /// Two float16 values, an int8 matrix with its per-row scale, a scalar and an alias.
    static func smallFile() -> FileBuilder {
        var file = FileBuilder.header(variableCount: 4)
        file.variable("a/half", shape: [2], type: 4, data: bytes(of: [Float16(1.5), Float16(-0.25)]))
        file.variable("a/quantized", shape: [2, 2], type: 1, data: [10, 246, 4, 8])  // 10, -10 / 4, 8
        file.variable("a/quantized_scale", shape: [2], type: 0, data: bytes(of: [Float(10), Float(4)]))
        file.variable("a/heads", shape: [], type: 2, data: [6, 0])
        file.uint32(1)
        file.string("a/tied")
        file.string("a/half")
        return file
    }

    static func parse(_ file: FileBuilder) throws(WhisperModelError) -> CTranslate2ModelFile {
        try CTranslate2ModelFile(contents: Data(file.bytes), path: "/models/test/model.bin")
    }

    @Test func readsVariablesConvertingFloat16AndInt8() throws {
        let file = try Self.parse(Self.smallFile())
        #expect(file.specification == "WhisperSpec")
        #expect(file.revision == 3)
        #expect(file.variables.map(\.name) == ["a/half", "a/quantized", "a/quantized_scale", "a/heads"])
        #expect(try file.floats("a/half") == [1.5, -0.25])
        #expect(try file.floats("a/tied") == [1.5, -0.25], "an alias reads its target")
        #expect(try file.floats("a/quantized", shape: [2, 2]) == [1, -1, 1, 2])
        #expect(try file.integer("a/heads") == 6)
    }

    @Test("rows read as half floats: float16 as it is in the file, other types rounded to it")
    func halfFloatRows() throws {
        var builder = FileBuilder.header(variableCount: 2)
        builder.variable("m/half", shape: [3, 2], type: 4, data: Self.bytes(of: [1, 2, 3, 4, 5, -6].map { Float16($0) }))
        builder.variable("m/single", shape: [3, 2], type: 0, data: Self.bytes(of: [Float(0.1), 2, 3, 4, 5, -6]))
        builder.uint32(0)
        let file = try Self.parse(builder)
        #expect(try file.halfFloats("m/half", shape: [3, 2], rows: 1..<3) == [3, 4, 5, -6].map { Float16($0).bitPattern })
        #expect(try file.halfFloats("m/single", shape: [3, 2], rows: 0..<1) == [Float16(0.1).bitPattern, Float16(2).bitPattern])
        #expect(throws: WhisperModelError.unexpectedShape(path: "/models/test/model.bin", variable: "m/half", shape: [3, 2], expected: [2, 3])) {
            try file.halfFloats("m/half", shape: [2, 3], rows: 0..<1)
        }
    }

    @Test("a mapped file reads as the same bytes in memory, again after its pages were handed back")
    func mappedFileReadsTwice() throws {
        var builder = FileBuilder.header(variableCount: 2)
        let large = (0..<100_000).map { Float16(Float($0 % 2048) / 8) }
        builder.variable("m/large", shape: [1000, 100], type: 4, data: Self.bytes(of: large))
        builder.variable("m/after", shape: [2], type: 4, data: Self.bytes(of: [Float16(1.5), Float16(-0.25)]))
        builder.uint32(0)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-model-\(UUID().uuidString).bin").path
        try Data(builder.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mapped = try CTranslate2ModelFile(path: path), inMemory = try Self.parse(builder)
        for rows in [0..<16, 16..<999, 999..<1000, 0..<1000] {
            #expect(try mapped.halfFloats("m/large", shape: [1000, 100], rows: rows) == inMemory.halfFloats("m/large", shape: [1000, 100], rows: rows))
        }
        #expect(try mapped.floats("m/after") == [1.5, -0.25])
        #expect(try mapped.floats("m/large") == large.map { Float($0) })
    }

    @Test func aMissingVariableOrAWrongShapeIsNamed() throws {
        let file = try Self.parse(Self.smallFile())
        #expect(throws: WhisperModelError.missingVariable(path: "/models/test/model.bin", variable: "b/none")) { try file.floats("b/none") }
        #expect(throws: WhisperModelError.unexpectedShape(path: "/models/test/model.bin", variable: "a/half", shape: [2], expected: [3])) {
            try file.floats("a/half", shape: [3])
        }
    }

    @Test func everyTruncationIsATypedErrorNotACrash() {
        let whole = Self.smallFile().bytes
        for length in 0..<whole.count {
            #expect(throws: WhisperModelError.self) {
                _ = try CTranslate2ModelFile(contents: Data(whole[0..<length]), path: "/models/test/model.bin")
            }
        }
        do {
            _ = try CTranslate2ModelFile(contents: Data(whole[0..<30]), path: "/models/test/model.bin")
        } catch {
            guard case let .truncated(path, _, expected) = error else { Issue.record("expected .truncated, got \(error)"); return }
            #expect(path == "/models/test/model.bin")
            #expect(error.description.contains("truncated") && error.description.contains(expected))
        }
    }

    @Test func anotherVersionIsRefused() {
        #expect(throws: WhisperModelError.unsupportedVersion(path: "/models/test/model.bin", version: 5, supported: 6)) {
            try Self.parse(FileBuilder.header(version: 5, variableCount: 0))
        }
    }

    @Test func anUnknownDataTypeIsRefused() {
        var file = FileBuilder.header(variableCount: 1)
        file.variable("a/odd", shape: [1], type: 9, data: [0])
        #expect(throws: WhisperModelError.unknownDataType(path: "/models/test/model.bin", variable: "a/odd", code: 9)) {
            try Self.parse(file)
        }
    }

    @Test func aByteCountThatDisagreesWithTheShapeIsRefused() {
        var file = FileBuilder.header(variableCount: 1)
        file.variable("a/short", shape: [4], type: 0, data: [0, 0, 0, 0])
        #expect(throws: WhisperModelError.inconsistentVariable(path: "/models/test/model.bin", variable: "a/short", shape: [4], byteCount: 4)) {
            try Self.parse(file)
        }
    }

    @Test func aMissingFileNamesItsPath() {
        do {
            _ = try CTranslate2ModelFile(path: "/nonexistent/whisper/model.bin")
            Issue.record("a missing file was read")
        } catch {
            guard case let .unreadable(path, _) = error else { Issue.record("expected .unreadable, got \(error)"); return }
            #expect(path == "/nonexistent/whisper/model.bin")
            #expect(error.description.contains("make neural-model"))
        }
    }

    /// The real model.bin cut short on disk: the model refuses to load with the typed error, naming the file.
    @Test func aTruncatedModelFileOnDiskGivesTheTypedError() throws {
        let real = WhisperReferenceTests.modelFolder.appendingPathComponent("model.bin")
        let handle = try FileHandle(forReadingFrom: real)
        let head = try handle.read(upToCount: 1_000_000) ?? Data()
        try handle.close()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("whisper-truncated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try head.write(to: folder.appendingPathComponent("model.bin"))
        do {
            _ = try WhisperModel(folder: folder)
            Issue.record("a truncated model loaded")
        } catch {
            guard case let .truncated(path, offset, _) = error else { Issue.record("expected .truncated, got \(error)"); return }
            #expect(path == folder.appendingPathComponent("model.bin").path)
            #expect(offset == head.count)
        }
    }

    /// A well-formed file that is not a complete Whisper model names the first variable it lacks.
    @Test func aModelWithoutItsWeightsNamesTheMissingVariable() throws {
        var file = FileBuilder.header(variableCount: 0)
        file.uint32(0)
        #expect(throws: WhisperModelError.missingVariable(path: "/models/test/model.bin", variable: "decoder/embeddings/weight")) {
            try WhisperModel(file: Self.parse(file))
        }
    }
}

/// The spectrogram's own rules, without a reference.
struct LogMelSpectrogramTests {
    @Test func silenceIsTheFloorEverywhere() {
        let mel = LogMelSpectrogram(samples: [Float](repeating: 0, count: 16000), frameCount: 200)
        // log10(1e-10) = -10 everywhere; (−10 + 4) / 4.
        #expect(mel.values.allSatisfy { $0 == -1.5 })
    }

    @Test func framesPastTheAudioAreThoseOfWhispersSilencePadding() {
        let tone = (0..<8000).map { Float(sin(2 * Double.pi * 440 * Double($0) / 16000)) * 0.5 }
        let short = LogMelSpectrogram(samples: tone, frameCount: 100)
        let long = LogMelSpectrogram(samples: tone, frameCount: LogMelSpectrogram.fullWindowFrameCount)
        for band in 0..<LogMelSpectrogram.bandCount {
            for frame in 0..<100 { #expect(short[band, frame] == long[band, frame]) }
        }
        // Well past the audio every value is the clamp floor: the loudest value − 8, mapped.
        let loudest = long.values.max()!
        #expect(abs(long[0, 2000] - (loudest - 2)) < 1e-5)
    }

    @Test func theUtteranceWindowIsEvenCoversTheClipAndStopsAtThirtySeconds() {
        #expect(LogMelSpectrogram.frameCount(forSampleCount: 16000, marginSeconds: 1) == 200)
        #expect(LogMelSpectrogram.frameCount(forSampleCount: 16001, marginSeconds: 1) == 202)
        #expect(LogMelSpectrogram.frameCount(forSampleCount: 16000 * 40) == 3000)
    }

    @Test func theMelFiltersHaveSlaneyAreaNormalisation() {
        let filters = MelFilterbank.shared
        #expect(filters.weights.count == 80)
        // Every band is a triangle over some bins; the lowest ones peak at 0.02486 (librosa's value).
        #expect(filters.weights.allSatisfy { !$0.bins.isEmpty })
        #expect(abs((filters.weights[0].values.max() ?? 0) - 0.024862595) < 1e-6)
    }
}
