/// A PocketSphinx failure: what was attempted, the library's return code and its own error lines.
public struct RecognizerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the recognizer was doing, e.g. "load acoustic model", "set grammar".
    public let operation: String
    /// The C return code, or nil when the call returns a pointer (NULL on failure).
    public let returnCode: Int32?
    /// The library's warnings and errors logged during the call, oldest first.
    public let libraryMessages: [String]
    /// Context a person needs to fix it: a path, a search name, a word.
    public let context: String?

    /// Creates an error; `libraryMessages` are usually taken from the per-thread log capture.
    public init(operation: String, returnCode: Int32? = nil, libraryMessages: [String] = [], context: String? = nil) {
        self.operation = operation
        self.returnCode = returnCode
        self.libraryMessages = libraryMessages
        self.context = context
    }

    /// One paragraph: operation, context, code and the library's lines.
    public var description: String {
        var text = "recognizer: \(operation) failed"
        if let context { text += " (\(context))" }
        if let returnCode { text += ", return code \(returnCode)" }
        if !libraryMessages.isEmpty { text += "\n  " + libraryMessages.joined(separator: "\n  ") }
        return text
    }
}
