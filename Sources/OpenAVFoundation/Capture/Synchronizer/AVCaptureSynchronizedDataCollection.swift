import Foundation

/// The data of a synchronizer's outputs at one time: at most one item an output, looked up by
/// the output, and a sequence of the items in the order of the synchronizer's outputs.
public final class AVCaptureSynchronizedDataCollection: NSObject, Sequence, @unchecked Sendable {
    /// The items, each with its output, in the order of the synchronizer's `dataOutputs`.
    private let items: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]

    init(_ items: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]) {
        self.items = items
    }

    /// How many outputs have data in the collection.
    public var count: Int { items.count }

    /// The data of `captureOutput`, or nil when it has none in this collection.
    public func synchronizedData(for captureOutput: AVCaptureOutput) -> AVCaptureSynchronizedData? {
        items.first { $0.output === captureOutput }?.data
    }

    /// The data of `dataOutput`, or nil when it has none in this collection.
    public subscript(dataOutput: AVCaptureOutput) -> AVCaptureSynchronizedData? {
        synchronizedData(for: dataOutput)
    }

    /// An iterator over the collection's data.
    public func makeIterator() -> Iterator {
        Iterator(items: items.map(\.data).makeIterator())
    }

    /// Iterates over a collection's data, in the order of the synchronizer's outputs.
    public struct Iterator: IteratorProtocol {
        var items: IndexingIterator<[AVCaptureSynchronizedData]>

        /// The next item, or nil after the last.
        public mutating func next() -> AVCaptureSynchronizedData? { items.next() }
    }
}
