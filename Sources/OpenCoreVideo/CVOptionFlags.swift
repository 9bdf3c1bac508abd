/// The 64-bit flag word that Core Video option sets (lock and flush flags) are built on.
public typealias CVOptionFlags = UInt64
