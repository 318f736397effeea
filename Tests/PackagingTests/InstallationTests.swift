import Foundation
import Testing
@testable import FlightVoiceCLI

/// `make install`/`make uninstall` into a staging folder, and the Debian package's whole life on this machine:
/// install, use as the `flightvoice` user, upgrade over itself keeping a changed config, remove keeping the data, purge.
/// Both build the installable program (`make installable`, a release build in .build/install) the first time.
@Suite(.serialized) struct InstallationTests {
    static let isRoot = getuid() == 0
    /// A moment on the built-in day, as the other end-to-end tests use.
    static let fixedNow = "2026-11-30T12:00:00+01:00"
    static let sampleClip = PackageFolders.root.appendingPathComponent("Samples/lx40.wav")

    /// Runs `make TARGET…` in the package root; a failure shows make's output.
    static func make(_ arguments: [String]) throws -> String {
        let run = try ToolRun.run("make", ["--no-print-directory"] + arguments, in: PackageFolders.root)
        guard run.status == 0 else { throw CommandFailed(command: "make \(arguments.joined(separator: " "))", output: run.output) }
        return run.output
    }

    /// The files below `folder`, relative to it, sorted.
    static func files(below folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count)))
            }
        }
        return files.sorted()
    }

    /// A copy of the sample clip where the `flightvoice` user (and a namespace hiding the sources) can read it.
    static func copyOfSampleClip() throws -> (folder: URL, clip: String) {
        let folder = try PackageFolders.makeTemporaryFolder("clip")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let clip = folder.appendingPathComponent("lx40.wav")
        try FileManager.default.copyItem(at: sampleClip, to: clip)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: clip.path)
        return (folder, clip.path)
    }

    @Test func makeInstallPutsEveryFileInItsPlaceAndUninstallRemovesThem() throws {
        let destination = try PackageFolders.makeTemporaryFolder("destdir")
        defer { try? FileManager.default.removeItem(at: destination) }
        _ = try Self.make(["install", "PREFIX=/usr/local", "DESTDIR=\(destination.path)"])
        let installed = Self.files(below: destination)
        var expected = ["/usr/local/bin/flightvoice",
                        "/usr/local/share/bash-completion/completions/flightvoice",
                        "/usr/local/share/zsh/site-functions/_flightvoice",
                        "/usr/local/share/fish/vendor_completions.d/flightvoice.fish",
                        "/usr/local/lib/systemd/system/flightvoice.service",
                        "/usr/local/lib/systemd/system/flightvoice-kiosk@.service",
                        "/usr/local/share/doc/flightvoice/examples/flightvoice.conf",
                        "/usr/local/share/man/man1/flightvoice.1"]
        expected += ProgramReference.flightVoice.commands.map { "/usr/local/share/man/man1/flightvoice-\($0.name).1" }
        for model in ["en-us-flightvoice", "whisper-tiny.en", "whisper-tiny.en-flightvoice"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: PackageFolders.root.appendingPathComponent("models/\(model)").path)
            expected += files.map { "/usr/local/share/flightvoice/models/\(model)/\($0)" }
        }
        #expect(installed == expected.sorted())
        // The grammar and the seed day are inside the program, so they are not installed.
        #expect(!installed.contains { $0.contains("grammar") || $0.hasSuffix(".jsgf") || $0.hasSuffix("flights.sql") })
        let unit = try String(contentsOf: destination.appendingPathComponent("usr/local/lib/systemd/system/flightvoice.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/local/bin/flightvoice serve\n"))

        // The installed program finds FlightVoice's adapted model below its own prefix, with the sources hidden.
        let (clipFolder, clip) = try Self.copyOfSampleClip()
        defer { try? FileManager.default.removeItem(at: clipFolder) }
        let program = destination.appendingPathComponent("usr/local/bin/flightvoice").path
        // (No settings file, and the default database, created on first use below HOME.)
        let adapted = try InstalledProgram.run(program, ["recognize", "--model", "adapted", clip], home: clipFolder.path,
                                               environment: ["FLIGHTVOICE_NOW": Self.fixedNow, "FLIGHTVOICE_CONFIG": "/dev/null"])
        #expect(adapted.status == 0, "\(adapted.output)")
        #expect(adapted.output.contains("LX 40"), "\(adapted.output)")
        // The sources really are out of reach: the same run without the installed models finds none (exit 69).
        let hidden = try InstalledProgram.run("/bin/ls", ["-A", PackageFolders.root.path])
        #expect(hidden.status == 0 && hidden.output.isEmpty, "\(hidden.output)")
        let models = destination.appendingPathComponent("usr/local/share/flightvoice/models")
        let movedModels = destination.appendingPathComponent("models-moved-away")
        try FileManager.default.moveItem(at: models, to: movedModels)
        let withoutModels = try InstalledProgram.run(program, ["recognize", "--model", "adapted", clip], home: clipFolder.path,
                                                     environment: ["FLIGHTVOICE_NOW": Self.fixedNow, "FLIGHTVOICE_CONFIG": "/dev/null"])
        #expect(withoutModels.status == 69, "\(withoutModels.output)")
        try FileManager.default.moveItem(at: movedModels, to: models)

        _ = try Self.make(["uninstall", "PREFIX=/usr/local", "DESTDIR=\(destination.path)"])
        #expect(Self.files(below: destination) == [])
    }

    @Test(.enabled(if: isRoot, "the package test installs with dpkg and runs as the flightvoice user: run it as root"))
    func debianPackageInstallsUpgradesRemovesAndPurges() throws {
        let output = try Self.make(["deb"])
        let package = try #require(output.split(separator: "\n").last { $0.hasSuffix(".deb") }.map(String.init), "make deb named no package: \(output)")
        let machine = DebianMachine()
        try machine.purgeLeftovers()
        defer { try? machine.purgeLeftovers() }

        // The package itself.
        let fields = try ToolRun.run("dpkg-deb", ["-f", package, "Version", "Depends", "Installed-Size", "Architecture"])
        #expect(fields.output.contains("Version: \(FlightVoiceCommand.version)-1"), "\(fields.output)")
        let depends = fields.output.split(separator: "\n").first { $0.hasPrefix("Depends: ") } ?? ""
        #expect(!depends.contains("-dev"), "\(depends)")
        for needed in ["pocketsphinx-en-us", "adduser", "libsystemd0", "libpocketsphinx3", "libc6"] {
            #expect(depends.contains(needed), "Depends lacks \(needed): \(depends)")
        }
        let conffiles = try ToolRun.run("dpkg-deb", ["--info", package, "conffiles"])
        #expect(conffiles.output == "/etc/flightvoice/flightvoice.conf\n")

        // Install: the user, its data folder and its database.
        let install = try ToolRun.run("dpkg", ["-i", package])
        #expect(install.status == 0, "\(install.output)")
        try #require(install.status == 0)
        #expect(machine.userExists)
        #expect(try machine.groups(of: "flightvoice").contains("audio"))
        let database = "/var/lib/flightvoice/flights.sqlite"
        let databaseAttributes = try FileManager.default.attributesOfItem(atPath: database)
        #expect(databaseAttributes[.ownerAccountName] as? String == "flightvoice")
        let sections = try ToolRun.run("readelf", ["-S", "/usr/bin/flightvoice"])
        #expect(sections.status == 0 && !sections.output.contains(".symtab"), "the installed program is not stripped")

        // Use it as the flightvoice user, with only the installed files.
        let (clipFolder, clip) = try Self.copyOfSampleClip()
        defer { try? FileManager.default.removeItem(at: clipFolder) }
        let environment = ["FLIGHTVOICE_NOW": Self.fixedNow]
        let ask = try InstalledProgram.run("/usr/bin/flightvoice", ["ask", "--db", database, "L X forty"], user: "flightvoice", home: "/var/lib/flightvoice", environment: environment)
        #expect(ask.status == 0, "\(ask.output)")
        #expect(ask.output.contains("LX 40") && ask.output.contains("Gate E34"), "\(ask.output)")
        for model in [[], ["--model", "adapted"]] {
            let recognize = try InstalledProgram.run("/usr/bin/flightvoice", ["recognize", "--db", database] + model + [clip], user: "flightvoice",
                                                     home: "/var/lib/flightvoice", environment: environment)
            #expect(recognize.status == 0, "recognize \(model): \(recognize.output)")
            #expect(recognize.output.contains("→ LX 40"), "recognize \(model): \(recognize.output)")
        }
        let manual = try ToolRun.run("man", ["-w", "flightvoice-recognize"])
        #expect(manual.output == "/usr/share/man/man1/flightvoice-recognize.1.gz\n", "\(manual.output)")

        // Upgrade over itself: a changed config is kept (--force-confold answers dpkg's question), the database too.
        let config = "/etc/flightvoice/flightvoice.conf"
        let changed = try String(contentsOfFile: config, encoding: .utf8) + "# changed by the package test\nworkers = 1\n"
        try Data(changed.utf8).write(to: URL(fileURLWithPath: config))
        let inode = databaseAttributes[.systemFileNumber] as? Int
        let upgrade = try ToolRun.run("dpkg", ["--force-confold", "-i", package])
        #expect(upgrade.status == 0, "\(upgrade.output)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == changed)
        #expect(try FileManager.default.attributesOfItem(atPath: database)[.systemFileNumber] as? Int == inode, "the upgrade replaced the database")
        let again = try InstalledProgram.run("/usr/bin/flightvoice", ["ask", "--db", database, "LX40"], user: "flightvoice", home: "/var/lib/flightvoice", environment: environment)
        #expect(again.status == 0, "\(again.output)")

        // Remove: the program goes, the data, the config and the user stay.
        let remove = try ToolRun.run("dpkg", ["-r", "flightvoice"])
        #expect(remove.status == 0, "\(remove.output)")
        #expect(!FileManager.default.fileExists(atPath: "/usr/bin/flightvoice"))
        #expect(FileManager.default.fileExists(atPath: database))
        #expect(FileManager.default.fileExists(atPath: config))
        #expect(machine.userExists)

        // Purge: the data, the config and the user go.
        let purge = try ToolRun.run("dpkg", ["-P", "flightvoice"])
        #expect(purge.status == 0, "\(purge.output)")
        #expect(!FileManager.default.fileExists(atPath: "/var/lib/flightvoice"))
        #expect(!FileManager.default.fileExists(atPath: "/etc/flightvoice"))
        #expect(!machine.userExists)
    }
}

/// This machine's dpkg state as far as the package test touches it.
struct DebianMachine {
    var userExists: Bool { (try? ToolRun.run("getent", ["passwd", "flightvoice"]).status) == 0 }

    func groups(of user: String) throws -> [String] {
        try ToolRun.run("id", ["-nG", user]).output.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Purges the package and whatever a failed run left (the user, the data folder), so a run starts and ends clean.
    func purgeLeftovers() throws {
        let status = try ToolRun.run("dpkg-query", ["-W", "-f", "${db:Status-Abbrev}", "flightvoice"])
        if status.status == 0 && !status.output.hasPrefix("un") {
            _ = try ToolRun.run("dpkg", ["-P", "flightvoice"])
        }
        if userExists { _ = try ToolRun.run("userdel", ["flightvoice"]) }
        if (try? ToolRun.run("getent", ["group", "flightvoice"]).status) == 0 { _ = try ToolRun.run("groupdel", ["flightvoice"]) }
        try? FileManager.default.removeItem(atPath: "/var/lib/flightvoice")
        try? FileManager.default.removeItem(atPath: "/etc/flightvoice")
    }
}

/// A command the test relies on failed; its output says why.
struct CommandFailed: Error, CustomStringConvertible {
    let command: String
    let output: String
    var description: String { "\(command) failed:\n\(output.suffix(4000))" }
}
