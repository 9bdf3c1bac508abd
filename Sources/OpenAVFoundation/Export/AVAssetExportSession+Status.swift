extension AVAssetExportSession {
    /// Where an export stands.
    public enum Status: Int, Sendable {
        /// The export has not started.
        case unknown = 0
        /// The export is waiting to start.
        case waiting = 1
        /// The export is under way.
        case exporting = 2
        /// The file is written.
        case completed = 3
        /// The export failed; `error` says why. Nothing is left at the output URL.
        case failed = 4
        /// `cancelExport()` stopped the export. Nothing is left at the output URL.
        case cancelled = 5
    }
}
