import DatabaseTestSupport
import Foundation
import ProcessTestSupport
import Testing

/// A real AWS client against the server: boto3 from PyPI, in a virtual environment under .build, runs the seed app's
/// Transcribe + S3 workflow with nothing changed but the endpoint (Fixtures/boto3_workflow.py).
@Suite(.serialized) struct Boto3EndToEndTests {
    static let environmentFolder = ServerProcess.packageRoot.appendingPathComponent(".build/boto3-venv")

    /// The virtual environment's python, creating it and installing boto3 on first use.
    static func python() throws -> String {
        let python = environmentFolder.appendingPathComponent("bin/python").path
        if try FileManager.default.isExecutableFile(atPath: python) && runToEnd(python, ["-c", "import boto3"]).status == 0 { return python }
        let created = try runToEnd("/usr/bin/python3", ["-m", "venv", environmentFolder.path])
        guard created.status == 0 else { throw ServerFailure("python3 -m venv failed (is python3-venv installed? make deps installs it): \(created.output)") }
        let installed = try runToEnd(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "boto3"])
        guard installed.status == 0 else { throw ServerFailure("pip install boto3 failed: \(installed.output)") }
        return python
    }

    @Test func theSeedWorkflowRunsUnchangedButForTheEndpoint() throws {
        try runSeedWorkflow(serverArguments: [])
    }

    /// On PostgreSQL the job's S3 media is copied into the shared job files (the worker reads only those), and
    /// deleting the job removes the copy and the transcript.
    @Test(.enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
    func theSeedWorkflowRunsOnAFleetDatabase() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }
        try runSeedWorkflow(serverArguments: ["--database", url])
        #expect(try TestPostgres.column("SELECT count(*) FROM job_files", url: url) == ["0"], "the deleted job's shared media and transcript are gone")
    }

    /// Two servers on one database behind an imagined load balancer: the media is uploaded through one, and the job
    /// started, waited for, its output object read and the media deleted through the other.
    @Test(.enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
    func theSeedWorkflowRunsAcrossTwoServersOnAFleetDatabase() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }
        try runSeedWorkflow(serverArguments: ["--database", url], acrossTwoServers: true)
        #expect(try TestPostgres.column("SELECT key FROM s3_objects", url: url) == ["results/boto-job-1.json"])
    }

    private func runSeedWorkflow(serverArguments: [String], acrossTwoServers: Bool = false) throws {
        let python = try Self.python()
        let server = try ServerProcess(arguments: serverArguments)
        defer { server.cleanUp() }
        let credentials = server.dataFolder.appendingPathComponent("aws-credentials").path
        let other = try acrossTwoServers ? ServerProcess(arguments: serverArguments + ["--aws-credentials", credentials]) : nil
        defer { other?.cleanUp() }
        let result = try runToEnd(python, [ServerProcess.fixtures.appendingPathComponent("boto3_workflow.py").path, server.baseURL,
                                           ServerProcess.samples.appendingPathComponent("lx40.wav").path, "LX40"] + (other.map { [$0.baseURL] } ?? []),
                                  environment: ["AWS_SHARED_CREDENTIALS_FILE": credentials,
                                                "AWS_CONFIG_FILE": "/dev/null", "AWS_EC2_METADATA_DISABLED": "true",
                                                "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_PROFILE": ""])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("transcript l x forty"))
        #expect(result.output.hasSuffix("OK\n"))
    }
}
