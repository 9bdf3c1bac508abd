/// A command that could not do its job: ArgumentParser prints "Error: <message>" and exits with
/// status 1, without the usage text that belongs to mistakes in the command line itself.
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong, for the user.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
