import Foundation

/// Receives the data of a data output synchronizer's outputs, gathered by time.
public protocol AVCaptureDataOutputSynchronizerDelegate: NSObjectProtocol {
    /// Delivers one collection: the data of each output at one time (some outputs may have
    /// none then), on the synchronizer's delegate queue, in time order.
    func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer,
                                didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection)
}
