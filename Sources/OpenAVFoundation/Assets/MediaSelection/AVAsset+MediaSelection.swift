import Foundation

extension AVAsset {
    /// The characteristics the asset has selection groups for: `.audible` when it has several
    /// audio tracks (languages, commentary, description), `.legible` when it has subtitle or
    /// text tracks (not its chapter track). Blocks until the asset has loaded.
    ///
    /// Differs from Apple: groups are made from the tracks' media types, as players of
    /// Matroska and MP4 files offer them; Apple's come from QuickTime alternate groups, which
    /// FFmpeg does not read. HTTP Live Streams have no groups yet.
    public var availableMediaCharacteristicsWithMediaSelectionOptions: [AVMediaCharacteristic] {
        loadedContents.map { AVAsset.selectionGroups(of: self, $0).map(\.characteristic) } ?? []
    }

    /// The selection group of a characteristic (`.audible` or `.legible`), or nil when the
    /// asset has none. Blocks until the asset has loaded.
    public func mediaSelectionGroup(forMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> AVMediaSelectionGroup? {
        loadedContents.flatMap { AVAsset.selectionGroups(of: self, $0).first { $0.characteristic == mediaCharacteristic } }
    }

    /// The selection group of a characteristic, loaded without blocking.
    public func loadMediaSelectionGroup(for mediaCharacteristic: AVMediaCharacteristic) async throws -> AVMediaSelectionGroup? {
        AVAsset.selectionGroups(of: self, try await loader.contents()).first { $0.characteristic == mediaCharacteristic }
    }

    /// The selection group of a characteristic; `completionHandler` is called on an arbitrary
    /// queue with it (nil when there is none), or with nil and the error.
    public func loadMediaSelectionGroup(for mediaCharacteristic: AVMediaCharacteristic,
                                        completionHandler: @escaping @Sendable (AVMediaSelectionGroup?, (any Error)?) -> Void) {
        whenLoaded({ (group: AVMediaSelectionGroup??, error) in completionHandler(group ?? nil, error) }) { asset, contents in
            AVAsset.selectionGroups(of: asset, contents).first { $0.characteristic == mediaCharacteristic }
        }
    }

    /// The selection a player makes without being told: each group's default option. Blocks
    /// until the asset has loaded.
    public var preferredMediaSelection: AVMediaSelection { AVMediaSelection(asset: self) }

    /// The selection groups of loaded contents. An HTTP Live Stream offers its renditions (its
    /// `EXT-X-MEDIA` entries), not the tracks each variant carries for itself.
    static func selectionGroups(of asset: AVAsset, _ contents: AssetContents) -> [AVMediaSelectionGroup] {
        var tracks = asset.tracks(of: contents)
        if contents.formatName == "hls" { tracks = tracks.filter { $0.contents.renditionName != nil } }
        let audible = tracks.filter { $0.mediaType == .audio }
        let legible = tracks.filter { $0.hasMediaCharacteristic(.legible) && !$0.contents.isChapterList }
        var groups: [AVMediaSelectionGroup] = []
        if audible.count > 1 { groups.append(AVMediaSelectionGroup(characteristic: .audible, tracks: audible)) }
        if !legible.isEmpty { groups.append(AVMediaSelectionGroup(characteristic: .legible, tracks: legible)) }
        return groups
    }
}
