import DatabaseTestSupport
@testable import FlightVoiceServer
import Foundation
import Testing
import TranscriptionJobs
import TranscriptionJobsPostgres

/// The `ObjectStore` contract on both backends: one server's data folder, and the database a fleet shares.
@Suite("S3 object stores")
struct ObjectStoreTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    /// A new, empty object store of `backend`.
    func makeStore(_ backend: StoreBackend) throws -> any ObjectStore {
        switch backend {
        case .sqlite: try DataFolder(path: fixture.path("data-\(UUID().uuidString)"))
        case .postgres: try PostgresObjectStore(url: fixture.newPostgresDatabase())
        }
    }

    @Test("objects round-trip every byte, replace, list in byte order by page and prefix, and go", arguments: StoreBackend.configured)
    func objectsRoundTripAndList(_ backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(throws: ObjectStoreError.noSuchBucket("calls")) { try store.putObject(Data([1]), bucket: "calls", key: "a", now: Date()) }
        #expect(try store.bucketExists("calls") == false)
        try store.createBucket("calls", now: Date())
        try store.createBucket("calls", now: Date())
        #expect(try store.bucketExists("calls"))
        let everyByte = Data((0...255).map(UInt8.init))
        try store.putObject(everyByte, bucket: "calls", key: "incoming/query 1.wav", now: Date())
        #expect(try store.object(bucket: "calls", key: "incoming/query 1.wav")?.data == everyByte)
        try store.putObject(Data("new".utf8), bucket: "calls", key: "incoming/query 1.wav", now: Date())
        #expect(try store.object(bucket: "calls", key: "incoming/query 1.wav")?.data == Data("new".utf8), "a PUT replaces the object")
        #expect(try store.object(bucket: "calls", key: "incoming/missing") == nil)
        for key in ["incoming/b", "incoming/Z", "results/r.json", "incoming/é"] { try store.putObject(Data(key.utf8), bucket: "calls", key: key, now: Date()) }
        let all = try store.listObjects(bucket: "calls", prefix: "", after: "", limit: 1000)
        #expect(all.objects.map(\.key) == ["incoming/Z", "incoming/b", "incoming/query 1.wav", "incoming/é", "results/r.json"], "byte order, as S3 lists")
        #expect(all.objects.first?.size == 10)
        #expect(!all.isTruncated)
        let first = try store.listObjects(bucket: "calls", prefix: "incoming/", after: "", limit: 2)
        #expect(first.objects.map(\.key) == ["incoming/Z", "incoming/b"])
        #expect(first.isTruncated)
        let rest = try store.listObjects(bucket: "calls", prefix: "incoming/", after: "incoming/b", limit: 2)
        #expect(rest.objects.map(\.key) == ["incoming/query 1.wav", "incoming/é"])
        #expect(!rest.isTruncated)
        #expect(throws: ObjectStoreError.bucketNotEmpty("calls")) { try store.deleteBucket("calls") }
        for key in all.objects.map(\.key) { try store.deleteObject(bucket: "calls", key: key) }
        try store.deleteObject(bucket: "calls", key: "incoming/b")
        #expect(try store.listObjects(bucket: "calls", prefix: "", after: "", limit: 10).objects.isEmpty)
        try store.putObject(Data("a prefix is a key again".utf8), bucket: "calls", key: "incoming", now: Date())
        try store.deleteObject(bucket: "calls", key: "incoming")
        #expect(try store.deleteBucket("calls"))
        #expect(try store.deleteBucket("calls") == false)
        #expect(try store.bucketExists("calls") == false)
    }

    @Test(.enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
    func theDatabaseRefusesAnObjectOverItsLimitAndKeepsNothingOfIt() throws {
        let store = try PostgresObjectStore(url: fixture.newPostgresDatabase(), maximumObjectBytes: 1024)
        try store.createBucket("calls", now: Date())
        #expect(throws: ObjectStoreError.tooLarge(bytes: 1025, limit: 1024)) { try store.putObject(Data(count: 1025), bucket: "calls", key: "big", now: Date()) }
        #expect(try store.object(bucket: "calls", key: "big") == nil)
        #expect(PostgresObjectStore.defaultMaximumObjectBytes == PostgresJobFiles.defaultMaximumFileBytes, "an object fits the job files it is copied into")
    }
}
