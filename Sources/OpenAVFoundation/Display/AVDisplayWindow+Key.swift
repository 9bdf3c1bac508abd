extension AVDisplayWindow {
    /// A key pressed in a window: a character as typed (with the keyboard's layout), or a key
    /// that types none.
    ///
    /// Linux addition, with `AVDisplayWindow`.
    public enum Key: Equatable, Sendable {
        /// A character typed, as the keyboard's layout makes it (`"f"`, `" "`, `"["`).
        case character(Character)
        /// The arrow keys.
        case leftArrow, rightArrow, upArrow, downArrow
        /// The Escape key.
        case escape
    }
}
