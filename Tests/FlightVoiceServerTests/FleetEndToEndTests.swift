import DatabaseTestSupport
import Foundation
import ProcessTestSupport
import Testing

/// Two servers on one PostgreSQL database, as behind a load balancer: whichever a client reaches sees the same jobs,
/// transcripts, job events, S3 objects and flights.
@Suite("Two servers sharing PostgreSQL", .serialized, .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct FleetEndToEndTests {
    let url: String
    let tokenFile: URL
    /// One AWS key pair for both servers (`--aws-credentials`), as a fleet's clients sign for any server.
    let credentialsFile: URL
    let first: ServerProcess
    let second: ServerProcess

    init() throws {
        url = try TestPostgres.createDatabase()
        tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-fleet-token-\(UUID().uuidString)")
        try "fleet-token\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        credentialsFile = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-fleet-aws-\(UUID().uuidString)")
        try "[default]\naws_access_key_id = AKFVFLEETTEST\naws_secret_access_key = fleet-secret-\(UUID().uuidString)\n".write(to: credentialsFile, atomically: true, encoding: .utf8)
        let arguments = ["--database", url, "--token-file", tokenFile.path, "--aws-credentials", credentialsFile.path]
        first = try ServerProcess(arguments: arguments)
        second = try ServerProcess(arguments: arguments)
    }

    func cleanUp() {
        first.cleanUp()
        second.cleanUp()
        try? FileManager.default.removeItem(at: tokenFile)
        try? FileManager.default.removeItem(at: credentialsFile)
        TestPostgres.dropDatabase(url: url)
    }

    @Test func aJobCreatedOnOneServerIsWaitedForStreamedAndReadOnTheOther() throws {
        defer { cleanUp() }
        let clip = ServerProcess.samples.appendingPathComponent("lx40.wav")
        #expect(try first.createJob("fleet-lx40", clip: clip).status == 201)
        let events = try second.request("GET", "/v1/transcription-jobs/fleet-lx40/events", timeout: 60)
        #expect(events.text.contains("event: completed"), "the other server's event stream ends with the job: \(events.text)")
        // Whichever server decoded it, both streams show its partial hypotheses (the other's heard them announced).
        #expect(events.text.contains("event: partial"), "\(events.text)")
        let firstEvents = try first.request("GET", "/v1/transcription-jobs/fleet-lx40/events", timeout: 10)
        #expect(firstEvents.text.contains("event: partial") && firstEvents.text.contains("event: completed"), "\(firstEvents.text)")
        let waited = try second.request("GET", "/v1/transcription-jobs/fleet-lx40?wait=30")
        #expect(waited.json["status"] as? String == "COMPLETED")
        #expect((waited.json["answer"] as? [String: Any])?["flight"] as? String == "LX40")
        for server in [first, second] {
            let transcript = try server.request("GET", "/v1/transcription-jobs/fleet-lx40/transcript")
            #expect(transcript.status == 200)
            #expect(try JSONDecoder().decode(TranscribeResult.self, from: transcript.body).results.transcripts.first?.transcript == "l x forty")
        }
        #expect(try TestPostgres.column("SELECT count(*) FROM job_files", url: url) == ["2"], "media and transcript are in the database")

        // ?wait on one server returns when a job another server decodes finishes, not at the end of the wait.
        #expect(try second.createJob("fleet-second", clip: clip).status == 201)
        let started = Date()
        let other = try first.request("GET", "/v1/transcription-jobs/fleet-second?wait=50")
        #expect(other.json["status"] as? String == "COMPLETED")
        #expect(Date().timeIntervalSince(started) < 40)

        #expect(try second.request("DELETE", "/v1/transcription-jobs/fleet-lx40").status == 204)
        #expect(try first.request("GET", "/v1/transcription-jobs/fleet-lx40").status == 404)
        #expect(try TestPostgres.column("SELECT count(*) FROM job_files", url: url) == ["2"], "only the remaining job's media and transcript are left")
    }

    @Test func anS3ObjectPutThroughOneServerIsReadListedTranscribedAndDeletedThroughTheOther() throws {
        defer { cleanUp() }
        let aws = try AWSSigner(credentialsFile: credentialsFile)
        let clip = try Data(contentsOf: ServerProcess.samples.appendingPathComponent("lx40.wav"))
        #expect(try aws.s3("PUT", "/calls", on: first).status == 200)
        let put = try aws.s3("PUT", "/calls/incoming/lx40.wav", body: clip, on: first)
        #expect(put.status == 200, "\(put.text)")

        let head = try aws.s3("HEAD", "/calls/incoming/lx40.wav", on: second)
        #expect(head.status == 200)
        #expect(head.header("ETag") == put.header("ETag"))
        #expect(try aws.s3("GET", "/calls/incoming/lx40.wav", on: second).body == clip)
        let listed = try aws.s3("GET", "/calls", query: "list-type=2&prefix=incoming%2F", on: second)
        #expect(listed.status == 200)
        #expect(listed.text.contains("<Key>incoming/lx40.wav</Key>") && listed.text.contains("<Size>\(clip.count)</Size>"), "\(listed.text)")

        let started = try aws.transcribe("StartTranscriptionJob", [
            "TranscriptionJobName": "fleet-s3", "LanguageCode": "en-US", "MediaFormat": "wav", "Media": ["MediaFileUri": "s3://calls/incoming/lx40.wav"],
            "OutputBucketName": "calls", "OutputKey": "results/fleet-s3.json",
        ], on: second)
        #expect(started.status == 200, "\(started.text)")
        let waited = try first.request("GET", "/v1/transcription-jobs/fleet-s3?wait=60")
        #expect(waited.json["status"] as? String == "COMPLETED", "\(waited.text)")
        #expect((waited.json["answer"] as? [String: Any])?["flight"] as? String == "LX40")
        let described = try aws.transcribe("GetTranscriptionJob", ["TranscriptionJobName": "fleet-s3"], on: first)
        #expect((described.json["TranscriptionJob"] as? [String: Any])?["TranscriptionJobStatus"] as? String == "COMPLETED")
        // The output object, written by whichever server decoded the job, is there for both.
        for server in [first, second] {
            let output = try aws.s3("GET", "/calls/results/fleet-s3.json", on: server)
            #expect(output.status == 200)
            #expect(output.json["jobName"] as? String == "fleet-s3")
        }

        #expect(try aws.s3("DELETE", "/calls/incoming/lx40.wav", on: second).status == 204)
        #expect(try aws.s3("GET", "/calls/incoming/lx40.wav", on: first).status == 404)
        #expect(try aws.s3("HEAD", "/calls/incoming/lx40.wav", on: first).status == 404)
        #expect(!(try aws.s3("GET", "/calls", query: "list-type=2", on: first).text.contains("incoming/")))
        #expect(try aws.s3("DELETE", "/calls", on: first).status == 409, "the transcript object is still in the bucket")
        #expect(try TestPostgres.column("SELECT key FROM s3_objects", url: url) == ["results/fleet-s3.json"], "the objects are in the database")
        for server in [first, second] {
            let folder = server.dataFolder.appendingPathComponent("s3")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] == [], "nothing in \(folder.path)")
        }
    }

    func gate(on server: ServerProcess) throws -> String? {
        (try server.request("GET", "/v1/flights/LX40").json["result"] as? [String: Any])?["gate"] as? String
    }

    @Test func aFlightChangedThroughOneServerIsAnsweredByTheOther() throws {
        defer { cleanUp() }
        let changed = try first.request("PUT", "/v1/flights/LX40", body: Data(#"{"gate": "Z9"}"#.utf8),
                                         headers: ["Authorization": "Bearer fleet-token", "Content-Type": "application/json"])
        #expect(changed.status == 200, "\(changed.text)")
        // The writing server answers the new gate at once; another server within 2 s (the change's announcement).
        #expect(try gate(on: first) == "Z9")
        #expect(try eventually(2) { try gate(on: second) == "Z9" })
        let header = "flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares\n"
        let bearer = ["Authorization": "Bearer fleet-token", "Content-Type": "text/csv"]
        let refused = try second.request("POST", "/v1/flights:import", body: Data((header + "LX40,Swiss,departure,JFK,New York,13:05,,E,Y1,,boarding,\nZZ1,Nowhere Air,sideways,JFK,New York,13:00,,E,Y2,,scheduled,\n").utf8), headers: bearer)
        #expect(refused.status == 400, "a bad row refuses the whole file: \(refused.text)")
        #expect(try gate(on: second) == "Z9", "nothing of it was written")
        let imported = try second.request("POST", "/v1/flights:import", body: Data((header + "LX40,Swiss,departure,JFK,New York,13:05,,E,Y1,,boarding,\n").utf8), headers: bearer)
        #expect(imported.status == 200, "\(imported.text)")
        #expect(try gate(on: second) == "Y1")
        #expect(try eventually(2) { try gate(on: first) == "Y1" })
    }
}

/// A callback whose sender is killed mid-send, with a receiver that never answers that first POST.
@Suite("A callback cut mid-send by kill -9")
struct CallbackTakeoverTests {
    static let clip = ServerProcess.samples.appendingPathComponent("lx40.wav")

    /// On a fleet: while the sender lives, the other server leaves its send alone (the lease is renewed); once it is
    /// killed, a server resends the callback with the same delivery id, and after the 2xx never again.
    @Test(.enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
    func aFleetResendsACutCallbackWithTheSameDeliveryIDOnlyOnceItsSenderIsDead() async throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }
        let receiver = try CallbackReceiver(statuses: [CallbackReceiver.noAnswer])
        // A lease long enough that a loaded machine's scheduling cannot make a live sender look dead (at 5 s the whole
        // suite on two cores once kept a sender from renewing it in time: taken over 19.6 s after its send), and the
        // longest POST timeout, so that the sender itself does not retry meanwhile even when this test resumes late.
        let leaseSeconds = 15.0
        let callbackTimeout = 300.0
        let arguments = ["--database", url, "--lease-seconds", String(Int(leaseSeconds)), "--callback-timeout", String(Int(callbackTimeout))]
        let servers = try [ServerProcess(arguments: arguments), ServerProcess(arguments: arguments)]
        defer { servers.forEach { $0.cleanUp() } }
        #expect(try servers[0].createJob("cut", clip: Self.clip, query: "languageCode=en-US&callbackUrl=\(receiver.url)").status == 201)
        #expect(eventually(60) { receiver.arrivals.count == 1 }, "one server sent the callback; the receiver holds it unanswered")
        // Two leases after the send began, the other server (watching for dead servers every half lease) has still not
        // taken it over. Judged by the arrivals' times, not by when this check runs: a test suite saturating the
        // cooperative pool resumed this test over a minute late once, and past its timeout a live sender rightly
        // retries by itself.
        let sent = try #require(receiver.arrivals.first).time
        try await Task.sleep(for: .seconds(max(0, sent.addingTimeInterval(2 * leaseSeconds).timeIntervalSinceNow)))
        let delivery = try TestPostgres.column(
            "SELECT concat_ws(' ', state, 'attempts', attempts, 'owner', sending_owner, 'error', last_error) FROM job_callbacks", url: url)
        let resentWhileAlive = receiver.arrivals.dropFirst().filter { $0.time.timeIntervalSince(sent) < callbackTimeout }
        #expect(resentWhileAlive.isEmpty, "not resent while its sender is alive: \(resentWhileAlive.map { $0.time.timeIntervalSince(sent) }) s after the first send; \(delivery)")
        servers.forEach { $0.stop(signal: SIGKILL) }
        let survivor = try ServerProcess(arguments: arguments)
        defer { survivor.cleanUp() }
        #expect(eventually(90) { receiver.arrivals.count == 2 }, "resent by a live server once the sender's lease ended")
        try await Task.sleep(for: .seconds(3))
        let arrivals = receiver.arrivals
        #expect(arrivals.map(\.status) == [CallbackReceiver.noAnswer, 200], "acknowledged once, never sent again")
        #expect(arrivals.first?.deliveryID != nil && arrivals.first?.deliveryID == arrivals.last?.deliveryID, "the same delivery id")
        #expect(arrivals.first?.body == arrivals.last?.body)
        #expect(try TestPostgres.column("SELECT state FROM job_callbacks", url: url) == ["delivered"])
    }

    /// One server alone on its data folder (SQLite): the send a kill cut is sent again at the next start.
    @Test func aLoneServerResendsACutCallbackWithTheSameDeliveryIDAtItsNextStart() async throws {
        let receiver = try CallbackReceiver(statuses: [CallbackReceiver.noAnswer])
        let dataFolder = try ServerProcess.makeDataFolder()
        defer { try? FileManager.default.removeItem(at: dataFolder) }
        do {
            let server = try ServerProcess(dataFolder: dataFolder)
            #expect(try server.createJob("cut", clip: Self.clip, query: "languageCode=en-US&callbackUrl=\(receiver.url)").status == 201)
            #expect(eventually(60) { receiver.arrivals.count == 1 })
            server.stop(signal: SIGKILL)
        }
        let restarted = try ServerProcess(dataFolder: dataFolder)
        defer { restarted.cleanUp() }
        #expect(restarted.outputText.contains("1 callback(s) were being sent when their server stopped"), "\(restarted.outputText)")
        #expect(eventually(30) { receiver.arrivals.count == 2 })
        try await Task.sleep(for: .seconds(2))
        let arrivals = receiver.arrivals
        #expect(arrivals.map(\.status) == [CallbackReceiver.noAnswer, 200])
        #expect(arrivals.first?.deliveryID != nil && arrivals.first?.deliveryID == arrivals.last?.deliveryID)
        #expect(receiver.receivedOncePerDeliveryID.count == 1)
    }
}

/// `scripts/fleet-demo.sh`: PostgreSQL, two servers and two kiosk panes under tmux.
@Suite("The fleet demonstration script", .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct FleetDemoScriptTests {
    /// The demonstration script (PostgreSQL, two servers, two kiosk panes under tmux) proves its own point with --check.
    @Test func theFleetDemoShowsAGateChangeOnBothKiosks() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }
        let (status, output) = try runToEnd("/bin/bash", [ServerProcess.packageRoot.appendingPathComponent("scripts/fleet-demo.sh").path, "--check", "--database", url],
                                            environment: ["FLIGHTVOICE_BIN": ServerProcess.executable.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("reached server 2 and both kiosks"))
    }
}

@Suite struct FleetDatabaseUnreachableTests {
    /// A server whose database is down says so and exits 76 (database server unreachable), without listening.
    @Test func serveExits76WhenTheDatabaseCannotBeReached() throws {
        let folder = try ServerProcess.makeDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output) = try runToEnd(ServerProcess.executable.path,
                                            ["serve", "--port", "0", "--data", folder.path, "--database", "postgres://nobody@127.0.0.1:1/flights"])
        #expect(status == 76, "\(output)")
        #expect(output.contains("cannot reach the PostgreSQL database"))
        #expect(!output.contains("listening on"))
    }
}
