import Foundation

/// Code of a package that uses the project, type-checked as that package's build would see it:
/// from outside this package, so only public declarations are visible (a `package` or
/// internal name of ours cannot collide with the client's own), against the modules built
/// beside the tests. It runs the compiler's front end only: a fraction of a second.
public enum ClientCode {
    /// The errors the compiler reports for `source` (a whole file, with its imports); empty
    /// when it compiles.
    public static func errors(in source: String) throws -> [String] {
        let folder = Fixtures.folder.appendingPathComponent("client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-I", try modules.path] + cFlags + [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = text.split(separator: "\n").filter { $0.contains(": error:") }.map(String.init)
        if process.terminationStatus != 0 && errors.isEmpty { return [text] }
        return errors
    }

    /// The built modules: `Modules` beside the test bundle.
    private static var modules: URL {
        get throws {
            guard let bundle = Bundle.main.executableURL else { throw FixtureError(message: "no test bundle path") }
            let folders = [bundle.deletingLastPathComponent(), bundle.deletingLastPathComponent().deletingLastPathComponent()]
            guard let folder = folders.map({ $0.appendingPathComponent("Modules") })
                .first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("OpenAVFoundation.swiftmodule").path) })
            else { throw FixtureError(message: "no built OpenAVFoundation module beside \(bundle.path)") }
            return folder
        }
    }

    /// Where the C modules the project's modules import are found: their module maps (in
    /// `Sources/`) and the headers of the system libraries Package.swift names (`pkgConfig:`),
    /// as pkg-config gives them.
    private static let cFlags: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let maps = (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix("module.modulemap") }
            .flatMap { ["-Xcc", "-fmodule-map-file=" + sources.appendingPathComponent($0).path] }
        let manifest = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        let libraries = manifest.matches(of: /pkgConfig: "([^"]+)"/).flatMap { $0.output.1.split(separator: " ").map(String.init) }
        let includes = (try? Fixtures.run("pkg-config", ["--cflags-only-I"] + libraries))
            .map { String(decoding: $0, as: UTF8.self).split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } }
            ?? []
        return maps + includes.filter { !$0.isEmpty }.flatMap { ["-Xcc", $0] }
    }()
}
