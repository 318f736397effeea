/// One CSV record and the 1-based line of the file it starts on.
struct CSVRecord: Equatable, Sendable {
    let line: Int
    let fields: [String]
}

/// RFC 4180 CSV: comma-separated fields, double-quoted fields may hold commas, quotes (doubled) and line breaks.
/// CRLF, LF and lone CR all end a record; empty lines are skipped; a leading UTF-8 byte order mark is ignored.
enum CSVReader {
    /// The records of `text`, or a `CSVImportError` naming the line of a malformed quote.
    static func records(in text: String) throws(CSVImportError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldWasQuoted = false
        var recordHasContent = false
        var characters = text.unicodeScalars.makeIterator()
        var pending = characters.next()
        if pending == "\u{FEFF}" { pending = characters.next() }

        func endField() {
            fields.append(field)
            field = ""
            fieldWasQuoted = false
        }
        func endRecord() {
            if recordHasContent {
                endField()
                records.append(CSVRecord(line: recordLine, fields: fields))
            }
            fields = []
            field = ""
            fieldWasQuoted = false
            recordHasContent = false
        }

        while let character = pending {
            pending = characters.next()
            if inQuotes {
                switch character {
                case "\"" where pending == "\"":
                    field.unicodeScalars.append("\"")
                    pending = characters.next()
                case "\"":
                    inQuotes = false
                case "\r":
                    if pending == "\n" { pending = characters.next() }
                    field += "\n"
                    line += 1
                case "\n":
                    field += "\n"
                    line += 1
                default:
                    field.unicodeScalars.append(character)
                }
                continue
            }
            switch character {
            case ",":
                recordHasContent = true
                endField()
            case "\r", "\n":
                if character == "\r", pending == "\n" { pending = characters.next() }
                endRecord()
                line += 1
                recordLine = line
            case "\"":
                // Spaces before an opening quote are tolerated and dropped.
                guard field.unicodeScalars.allSatisfy(\.properties.isWhitespace), !fieldWasQuoted else {
                    throw CSVImportError(line: line, column: nil, problem: "a quote inside an unquoted field: quote the whole field and double inner quotes (\"\")")
                }
                field = ""
                inQuotes = true
                fieldWasQuoted = true
                recordHasContent = true
            default:
                if fieldWasQuoted, !character.properties.isWhitespace {
                    throw CSVImportError(line: line, column: nil, problem: "text after a closing quote: put a comma after the quoted field")
                }
                if !fieldWasQuoted { field.unicodeScalars.append(character) }
                recordHasContent = true
            }
        }
        if inQuotes {
            throw CSVImportError(line: recordLine, column: nil, problem: "a quoted field is never closed")
        }
        endRecord()
        return records
    }
}
