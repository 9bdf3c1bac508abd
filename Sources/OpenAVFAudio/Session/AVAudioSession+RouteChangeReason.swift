extension AVAudioSession {
    /// Why the route changed.
    public enum RouteChangeReason: UInt, Sendable {
        /// The reason is not known.
        case unknown = 0
        /// An input or output appeared (a source plugged in).
        case newDeviceAvailable = 1
        /// An input or output went away (a source unplugged).
        case oldDeviceUnavailable = 2
        /// The category changed.
        case categoryChange = 3
        /// The route was overridden (the preferred input changed).
        case override = 4
        /// The device woke from sleep.
        case wakeFromSleep = 6
        /// No route suits the category.
        case noSuitableRouteForCategory = 7
        /// The route's configuration changed.
        case routeConfigurationChange = 8
    }
}
