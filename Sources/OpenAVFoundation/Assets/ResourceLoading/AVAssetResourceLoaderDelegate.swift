import Foundation

/// What an `AVURLAsset`'s resource loader asks of the app: to load the bytes of a URL whose
/// scheme the framework does not fetch itself (a scheme of the app's own, for media kept in
/// memory, in a cache or encrypted), and to stop loading what is no longer needed.
///
/// Both methods are called on the queue given with
/// `AVAssetResourceLoader.setDelegate(_:queue:)`. Apple's methods for key renewal and
/// authentication challenges are not here.
public protocol AVAssetResourceLoaderDelegate: NSObjectProtocol {
    /// Whether the delegate takes on `loadingRequest`: true when it will (now or later, from
    /// any thread) fill in the request's content information, respond with its data and call
    /// `finishLoading()` or `finishLoading(with:)`; false fails the load. By default false.
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader,
                        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest) -> Bool

    /// The loader no longer needs `loadingRequest` (a seek elsewhere, the asset or reader let
    /// go): the delegate stops working on it. Its `isCancelled` is already true.
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest)
}

extension AVAssetResourceLoaderDelegate {
    /// Takes on nothing: the load fails.
    public func resourceLoader(_ resourceLoader: AVAssetResourceLoader,
                               shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest) -> Bool {
        false
    }

    /// Does nothing.
    public func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest) {}
}
