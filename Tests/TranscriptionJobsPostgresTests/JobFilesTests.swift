import DatabaseTestSupport
import Foundation
import Testing
import TranscriptionJobs
import TranscriptionJobsPostgres

/// Job media and transcripts in PostgreSQL: every byte value survives, a file is replaced or removed, and a file over
/// the limit is refused without being stored.
@Suite("Job files in PostgreSQL", .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct JobFilesTests {
    @Test func bytesRoundTripAndTheLimitHolds() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }
        let files = try PostgresJobFiles(url: url, maximumFileBytes: 1024)
        let everyByte = Data((0...255).map(UInt8.init) + (0...255).reversed().map(UInt8.init))
        try files.write(everyByte, to: "media/a")
        #expect(try files.read("media/a") == everyByte)
        try files.write(Data(), to: "media/a")
        #expect(try files.read("media/a") == Data(), "a write replaces the file")
        #expect(try files.read("media/missing") == nil)
        #expect(throws: JobFileTooLarge.self) { try files.write(Data(count: 1025), to: "media/big") }
        #expect(try files.read("media/big") == nil)
        try files.remove("media/a")
        try files.remove("media/a")
        #expect(try files.read("media/a") == nil)
    }
}
