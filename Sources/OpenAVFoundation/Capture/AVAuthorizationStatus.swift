/// Whether the app may capture media of a type.
///
/// Linux has no per-app capture permission: the status is `.authorized` when a device of the
/// media type can be listed (always, for the built-in virtual devices).
public enum AVAuthorizationStatus: Int, Sendable {
    /// The user has not been asked yet.
    case notDetermined = 0
    /// Access is restricted (parental controls, policy).
    case restricted = 1
    /// The user denied access.
    case denied = 2
    /// The app may capture.
    case authorized = 3
}
