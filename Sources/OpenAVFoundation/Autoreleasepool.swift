/// Runs `body` and returns its result: Apple's `autoreleasepool(invoking:)`, which real reader
/// and writer loops wrap around each sample. Linux Swift has no Objective-C autorelease pools
/// (objects are released when their last reference goes), so there is nothing to drain.
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
}
