import Foundation
import PackagePlugin

/// Records the git revision the package is built from as `buildRevision` in the target, for `flightvoice --version`.
///
/// A prebuild command, so it runs on every build and a new commit is never missed; the file is rewritten only when
/// the revision changed, so an unchanged revision recompiles nothing. Outside a git checkout (a source tarball) or
/// without git, the revision is "unknown".
@main
struct BuildRevision: BuildToolPlugin {
    /// The shell script: $1 the package folder, $2 the output folder.
    static let script = #"""
    set -u
    package="$1"; output="$2"
    mkdir -p "$output"
    revision=unknown
    if [ -e "$package/.git" ] && command -v git >/dev/null 2>&1; then
        revision=$(git -C "$package" describe --always --dirty --abbrev=12 --exclude='*' 2>/dev/null) || revision=unknown
    fi
    text="/// The git revision this binary was built from (\`git describe --always --dirty\`), or \"unknown\" outside a git checkout.
    let buildRevision = \"$revision\""
    file="$output/BuildRevision.swift"
    if [ ! -f "$file" ] || [ "$(cat "$file")" != "$text" ]; then printf '%s\n' "$text" > "$file"; fi
    """#

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        return [
            .prebuildCommand(
                displayName: "Recording the git revision for \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", Self.script, "build-revision", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
