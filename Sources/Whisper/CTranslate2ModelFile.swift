import Foundation

/// Why a CTranslate2 model file could not be used: each case names the file and what was wrong with it.
public enum WhisperModelError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file could not be read at all (missing, unreadable); `reason` is the system's message.
    case unreadable(path: String, reason: String)
    /// The file ends before `expected` could be read at byte `offset`.
    case truncated(path: String, offset: Int, expected: String)
    /// The binary format version is not the one this reader understands.
    case unsupportedVersion(path: String, version: UInt32, supported: UInt32)
    /// The file holds a different model specification (e.g. a translation model, not Whisper).
    case unexpectedSpecification(path: String, specification: String, expected: String)
    /// A variable's data type code is not one of CTranslate2's.
    case unknownDataType(path: String, variable: String, code: UInt8)
    /// A variable's byte count does not match its shape and data type.
    case inconsistentVariable(path: String, variable: String, shape: [Int], byteCount: Int)
    /// A variable the model needs is absent.
    case missingVariable(path: String, variable: String)
    /// A variable has a shape other than the model's configuration requires.
    case unexpectedShape(path: String, variable: String, shape: [Int], expected: [Int])
    /// A variable's data type cannot be turned into the form asked for (e.g. float weights from 32-bit integers).
    case unsupportedDataType(path: String, variable: String, dataType: String)
    /// A decoder adaptation holds a variable that changes nothing of the model's (`WhisperModel.adapted(by:)`).
    case unusedVariable(path: String, variable: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read the model file (\(reason)); run `make neural-model` to fetch it"
        case let .truncated(path, offset, expected):
            return "\(path): the model file is truncated: it ends at byte \(offset) where \(expected) should be; fetch it again (`make neural-model`)"
        case let .unsupportedVersion(path, version, supported):
            return "\(path): CTranslate2 model format version \(version) is not supported (this reader knows version \(supported))"
        case let .unexpectedSpecification(path, specification, expected):
            return "\(path): the model is a \(specification), not a \(expected)"
        case let .unknownDataType(path, variable, code):
            return "\(path): variable \(variable) has unknown data type code \(code); the file is corrupt"
        case let .inconsistentVariable(path, variable, shape, byteCount):
            return "\(path): variable \(variable) has shape \(shape) but \(byteCount) bytes; the file is corrupt"
        case let .missingVariable(path, variable):
            return "\(path): the model has no variable \(variable)"
        case let .unexpectedShape(path, variable, shape, expected):
            return "\(path): variable \(variable) has shape \(shape), expected \(expected)"
        case let .unsupportedDataType(path, variable, dataType):
            return "\(path): variable \(variable) is \(dataType), which cannot be read as numbers here"
        case let .unusedVariable(path, variable):
            return "\(path): variable \(variable) changes no weight of the model's decoder; the adaptation was made for another model"
        }
    }
}

/// A model file in CTranslate2's binary format (version 6): the specification name and revision, then named
/// variables (shape, data type, bytes), then aliases. Mapped into memory; values are converted to `Float` on request,
/// and a mapped file's pages are handed back once read (`ModelFileContents`).
///
/// Layout: uint32 version; uint16-length, NUL-terminated specification name; uint32 revision; uint32 variable count;
/// per variable a uint16-length name, uint8 rank, rank × uint32 dimensions, uint8 data type, uint32 byte count, bytes;
/// then uint32 alias count and (alias, target) name pairs. All little-endian.
///
/// Thread rule: an immutable value; share it freely.
public struct CTranslate2ModelFile: Sendable {
    /// The one binary format version this reader understands.
    public static let supportedVersion: UInt32 = 6

    /// CTranslate2's variable data types, by their codes in the file.
    public enum DataType: UInt8, Sendable, CustomStringConvertible {
        case float32 = 0, int8 = 1, int16 = 2, int32 = 3, float16 = 4, bfloat16 = 5

        /// Bytes per element.
        public var size: Int {
            switch self {
            case .int8: 1
            case .int16, .float16, .bfloat16: 2
            case .float32, .int32: 4
            }
        }

        public var description: String {
            switch self {
            case .float32: "float32"
            case .int8: "int8"
            case .int16: "int16"
            case .int32: "int32"
            case .float16: "float16"
            case .bfloat16: "bfloat16"
            }
        }
    }

    /// One named array in the file: its shape, element type and where its bytes are.
    public struct Variable: Sendable {
        public let name: String
        public let shape: [Int]
        public let dataType: DataType
        /// The byte range of the values within the file's contents.
        let bytes: Range<Int>

        /// Number of elements (1 for a scalar).
        public var count: Int { shape.reduce(1, *) }
    }

    /// The file's path, for messages.
    public let path: String
    /// The model specification, e.g. "WhisperSpec".
    public let specification: String
    /// The specification's revision.
    public let revision: UInt32
    /// The variables in file order.
    public let variables: [Variable]
    /// Alternative names: alias → the variable it stands for (e.g. a tied output projection).
    public let aliases: [String: String]

    private let contents: ModelFileContents
    private let index: [String: Int]

    /// Reads and checks the whole file; throws if it is missing, truncated, of another version or corrupt.
    public init(path: String) throws(WhisperModelError) {
        try self.init(contents: ModelFileContents(mapping: path), path: path)
    }

    /// Parses a file's contents already in memory; `path` only names it in errors.
    public init(contents: Data, path: String) throws(WhisperModelError) {
        try self.init(contents: ModelFileContents(copying: contents), path: path)
    }

    private init(contents: ModelFileContents, path: String) throws(WhisperModelError) {
        var reader = ByteReader(data: contents.bytes, path: path)
        let version = try reader.uint32("the format version")
        guard version == Self.supportedVersion else {
            throw .unsupportedVersion(path: path, version: version, supported: Self.supportedVersion)
        }
        specification = try reader.string("the specification name")
        revision = try reader.uint32("the specification revision")
        let variableCount = try reader.uint32("the variable count")
        var variables: [Variable] = []
        var index: [String: Int] = [:]
        for number in 0..<Int(variableCount) {
            let name = try reader.string("the name of variable \(number)")
            let rank = Int(try reader.uint8("the rank of \(name)"))
            var shape: [Int] = []
            for _ in 0..<rank { shape.append(Int(try reader.uint32("a dimension of \(name)"))) }
            let code = try reader.uint8("the data type of \(name)")
            guard let dataType = DataType(rawValue: code) else {
                throw .unknownDataType(path: path, variable: name, code: code)
            }
            let byteCount = Int(try reader.uint32("the byte count of \(name)"))
            guard byteCount == shape.reduce(1, *) * dataType.size else {
                throw .inconsistentVariable(path: path, variable: name, shape: shape, byteCount: byteCount)
            }
            let bytes = try reader.skip(byteCount, "the \(byteCount) bytes of \(name)")
            index[name] = variables.count
            variables.append(Variable(name: name, shape: shape, dataType: dataType, bytes: bytes))
        }
        var aliases: [String: String] = [:]
        let aliasCount = try reader.uint32("the alias count")
        for _ in 0..<aliasCount {
            let alias = try reader.string("an alias name")
            aliases[alias] = try reader.string("the target of alias \(alias)")
        }
        self.path = path
        self.variables = variables
        self.aliases = aliases
        self.contents = contents
        self.index = index
    }

    /// The variable called `name` (or the one an alias of that name stands for), if present.
    public func variable(_ name: String) -> Variable? {
        if let position = index[name] { return variables[position] }
        if let target = aliases[name], let position = index[target] { return variables[position] }
        return nil
    }

    /// A variable's values as `Float`, checking its shape when `shape` is given. float16 and bfloat16 are widened;
    /// int8 weights with a `<name>_scale` variable (CTranslate2's per-row quantization) are divided by their row's scale.
    public func floats(_ name: String, shape expected: [Int]? = nil) throws(WhisperModelError) -> [Float] {
        let variable = try self.variable(name, shape: expected)
        return try floats(of: variable, rows: 0..<(variable.shape.first ?? 1))
    }

    /// Rows `rows` of a variable of shape `expected` as half floats (IEEE binary16 bit patterns): float16 values as they
    /// are in the file, others converted as `floats` converts them and rounded to the nearest half float.
    public func halfFloats(_ name: String, shape expected: [Int], rows: Range<Int>) throws(WhisperModelError) -> [UInt16] {
        let variable = try self.variable(name, shape: expected)
        precondition(rows.lowerBound >= 0 && rows.upperBound <= (variable.shape.first ?? 1), "rows \(rows) of \(name) \(variable.shape)")
        guard variable.dataType == .float16 else { return try floats(of: variable, rows: rows).map { Float16($0).bitPattern } }
        return reading(variable, rows: rows) { base, count in
            (0..<count).map { UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)) }
        }
    }

    /// `read` given where the values of `rows` start and how many there are; a mapped file's pages that held them are
    /// released afterwards (`ModelFileContents`).
    private func reading<T>(_ variable: Variable, rows: Range<Int>, _ read: (UnsafeRawPointer, Int) -> T) -> T {
        let rowCount = variable.shape.first ?? 1
        let rowLength = rowCount == 0 ? 0 : variable.count / rowCount
        let elements = (rows.lowerBound * rowLength)..<(rows.upperBound * rowLength)
        let bytes = (elements.lowerBound * variable.dataType.size)..<(elements.upperBound * variable.dataType.size)
        defer { contents.releasePages((variable.bytes.lowerBound + bytes.lowerBound)..<(variable.bytes.lowerBound + bytes.upperBound)) }
        return read(start(of: variable).advanced(by: bytes.lowerBound), elements.count)
    }

    private func variable(_ name: String, shape expected: [Int]?) throws(WhisperModelError) -> Variable {
        guard let variable = variable(name) else { throw .missingVariable(path: path, variable: name) }
        if let expected, variable.shape != expected {
            throw .unexpectedShape(path: path, variable: name, shape: variable.shape, expected: expected)
        }
        return variable
    }

    /// The values of `rows` as `Float` (see `floats`).
    private func floats(of variable: Variable, rows: Range<Int>) throws(WhisperModelError) -> [Float] {
        if variable.dataType == .int8 || variable.dataType == .int16 || variable.dataType == .int32 {
            return try dequantized(variable, rows: rows)
        }
        return reading(variable, rows: rows) { base, count in
            switch variable.dataType {
            case .float32:
                return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
                    for i in 0..<count { buffer[i] = Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))) }
                    initialized = count
                }
            case .float16:
                return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
                    for i in 0..<count { buffer[i] = Float(Float16(bitPattern: UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))) }
                    initialized = count
                }
            case .bfloat16:
                return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
                    for i in 0..<count {
                        let half = UInt32(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                        buffer[i] = Float(bitPattern: half << 16)
                    }
                    initialized = count
                }
            case .int8, .int16, .int32:
                return []  // handled above
            }
        }
    }

    /// A scalar integer variable (e.g. `decoder/num_heads`).
    public func integer(_ name: String) throws(WhisperModelError) -> Int {
        guard let variable = variable(name) else { throw .missingVariable(path: path, variable: name) }
        guard variable.count == 1 else {
            throw .unexpectedShape(path: path, variable: name, shape: variable.shape, expected: [])
        }
        let base = start(of: variable)
        switch variable.dataType {
        case .int8: return Int(base.load(as: Int8.self))
        case .int16: return Int(Int16(littleEndian: base.loadUnaligned(as: Int16.self)))
        case .int32: return Int(Int32(littleEndian: base.loadUnaligned(as: Int32.self)))
        case .float32: return Int(Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(as: UInt32.self))))
        case .float16, .bfloat16: return Int(Float(Float16(bitPattern: UInt16(littleEndian: base.loadUnaligned(as: UInt16.self)))))
        }
    }

    /// int8 values of `rows` divided by their row's scale (`<name>_scale`, one float per row); other integer types are
    /// refused.
    private func dequantized(_ variable: Variable, rows: Range<Int>) throws(WhisperModelError) -> [Float] {
        guard variable.dataType == .int8, let rowCount = variable.shape.first, rowCount > 0,
              let scaleVariable = self.variable(variable.name + "_scale") else {
            throw .unsupportedDataType(path: path, variable: variable.name, dataType: variable.dataType.description)
        }
        let scales = try floats(scaleVariable.name, shape: [rowCount])
        return reading(variable, rows: rows) { base, count in
            let values = base.assumingMemoryBound(to: Int8.self), rowLength = count / max(1, rows.count)
            return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count { buffer[index] = Float(values[index]) * (1 / scales[rows.lowerBound + index / rowLength]) }
                initialized = count
            }
        }
    }

    /// Where `variable`'s bytes start.
    private func start(of variable: Variable) -> UnsafeRawPointer {
        contents.bytes.baseAddress!.advanced(by: variable.bytes.lowerBound)
    }
}

/// Little-endian reads from the file's bytes that throw `.truncated` instead of reading past the end.
private struct ByteReader {
    let data: UnsafeRawBufferPointer
    let path: String
    var offset = 0

    mutating func skip(_ count: Int, _ what: String) throws(WhisperModelError) -> Range<Int> {
        guard count >= 0, offset + count <= data.count else { throw .truncated(path: path, offset: data.count, expected: what) }
        defer { offset += count }
        return offset..<offset + count
    }

    mutating func uint8(_ what: String) throws(WhisperModelError) -> UInt8 {
        data[try skip(1, what).lowerBound]
    }

    mutating func uint16(_ what: String) throws(WhisperModelError) -> UInt16 {
        UInt16(littleEndian: data.loadUnaligned(fromByteOffset: try skip(2, what).lowerBound, as: UInt16.self))
    }

    mutating func uint32(_ what: String) throws(WhisperModelError) -> UInt32 {
        UInt32(littleEndian: data.loadUnaligned(fromByteOffset: try skip(4, what).lowerBound, as: UInt32.self))
    }

    /// A uint16 length, then that many bytes of UTF-8 ending in a NUL (dropped).
    mutating func string(_ what: String) throws(WhisperModelError) -> String {
        let length = Int(try uint16("the length of \(what)"))
        var bytes = data[try skip(length, what)]
        if bytes.last == 0 { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
