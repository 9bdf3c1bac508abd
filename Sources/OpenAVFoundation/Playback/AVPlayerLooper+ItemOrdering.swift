extension AVPlayerLooper {
    /// Where a looper puts its copies of the template item among the items already in the queue.
    public enum ItemOrdering: Int, Sendable {
        /// Before the items already queued: the loop plays first (the default).
        case loopingItemsPrecedeExistingItems = 0
        /// After the items already queued: the loop plays once they have played.
        case loopingItemsFollowExistingItems = 1
    }
}
