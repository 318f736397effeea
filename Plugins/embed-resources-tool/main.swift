// Writes a Swift file that holds text files as string constants:
//   embed-resources OUTPUT.swift NAME=PATH [NAME=PATH ...]
// Raw string literals keep the text byte-for-byte; the delimiter grows until the text cannot close it early.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: embed-resources OUTPUT.swift NAME=PATH...\n".utf8))
    exit(64)
}
var source = "// Generated at build time from files in the package. Do not edit.\n\n"
for assignment in arguments.dropFirst() {
    let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
    let text = try String(contentsOfFile: parts[1], encoding: .utf8)
    var delimiter = "#"
    while text.contains("\"" + delimiter) || text.contains("\\" + delimiter) { delimiter += "#" }
    source += "package let \(parts[0]): String = \(delimiter)\"\"\"\n\(text)\n\"\"\"\(delimiter)\n\n"
}
try source.write(toFile: outputPath, atomically: true, encoding: .utf8)
