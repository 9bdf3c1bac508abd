import ArgumentParser

/// `openav`: media on the command line, a thin shell over OpenAVFoundation.
@main
struct OpenAV: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openav",
        abstract: "Capture, inspect and convert media with OpenAVFoundation.",
        subcommands: [Probe.self, Thumbnail.self, Convert.self, Export.self, Concat.self, Compose.self, Play.self, Record.self, Preview.self, Serve.self, Snapshot.self, Scan.self, Devices.self, Say.self]
    )
}
