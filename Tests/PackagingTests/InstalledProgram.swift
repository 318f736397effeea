import Foundation

/// Runs an installed `flightvoice` the way a machine without FlightVoice's sources runs it: in a private mount
/// namespace where the source tree and the Swift toolchain's libraries are hidden under empty folders, from `/`, with
/// a bare environment. A program that still reached into the source tree (its models by `#filePath`) or the toolchain
/// (a Swift runtime not linked in) fails here.
enum InstalledProgram {
    /// The folder of the Swift runtime this test process loaded (the toolchain's), from /proc/self/maps.
    static var toolchainLibraries: String? {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
        let line = maps.split(separator: "\n").first { $0.hasSuffix("/libswiftCore.so") }
        return line.flatMap { $0.split(separator: " ").last }.map { URL(fileURLWithPath: String($0)).deletingLastPathComponent().path }
    }

    /// Folders hidden from the installed program.
    static var hiddenFolders: [String] {
        [PackageFolders.root.path] + (toolchainLibraries.map { [$0] } ?? [])
    }

    /// Runs `program ARGUMENTS` with the source tree and toolchain hidden; as `user` (runuser) when given.
    /// `environment` is all the program gets besides PATH, HOME and LANG.
    static func run(_ program: String, _ arguments: [String], user: String? = nil, home: String = "/nonexistent",
                    environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let hide = hiddenFolders.map { "mount -t tmpfs -o size=1m,mode=0755 flightvoice-hidden '\($0)' || exit 97" }.joined(separator: "\n")
        let variables = ["PATH=/usr/local/bin:/usr/bin:/bin", "HOME=\(home)", "LANG=C.UTF-8"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let asUser = user.map { "runuser -u \($0) -- " } ?? ""
        let script = """
        \(hide)
        cd / || exit 97
        exec \(asUser)env -i "$@"
        """
        // As root a mount namespace is enough; otherwise a user namespace maps this user to root inside it.
        let namespace = getuid() == 0 ? ["--mount"] : ["--user", "--map-root-user", "--mount"]
        return try ToolRun.run("unshare", namespace + ["--propagation", "private", "--", "sh", "-c", script, "sh"] + variables + [program] + arguments)
    }
}
