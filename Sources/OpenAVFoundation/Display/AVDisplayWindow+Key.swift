extension AVDisplayWindow {
    /// A key pressed in a window: a character as typed (with the keyboard's layout), or a key
    /// that types none.
    public enum Key: Equatable, Sendable {
        case character(Character)
        case leftArrow, rightArrow, upArrow, downArrow, escape
    }
}
