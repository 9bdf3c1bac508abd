import Foundation

extension AVAssetExportSession {
    /// What `states(updateInterval:)` reports while an export runs.
    public enum State: Sendable {
        /// The export has not started.
        case pending
        /// The export is waiting to start.
        case waiting
        /// The export is under way; `progress.fractionCompleted` says how far.
        case exporting(progress: Progress)
    }
}
