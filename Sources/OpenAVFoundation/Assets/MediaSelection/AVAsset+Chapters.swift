import Foundation
import MediaEngine
import OpenCoreMedia

extension AVAsset {
    /// The locales of the asset's chapter titles: one, the chapter track's language (QuickTime
    /// chapter tracks), or "und" for chapters whose language the file does not state (MP4 Nero
    /// chapters, Matroska chapters); none without chapters. Blocks until the asset has loaded.
    public var availableChapterLocales: [Locale] { loadedContents.map(AVAsset.chapterLocales) ?? [] }

    /// The chapters whose titles are in `locale`'s language, each an `AVTimedMetadataGroup`
    /// over the chapter's time range holding its title (an item whose `commonKey` is
    /// `.commonKeyTitle`). Chapters of undetermined language match every locale. `commonKeys`
    /// may ask for artwork, which chapters here do not carry. Blocks until the asset has loaded.
    public func chapterMetadataGroups(withTitleLocale locale: Locale, containingItemsWithCommonKeys commonKeys: [AVMetadataKey]?)
        -> [AVTimedMetadataGroup] {
        loadedContents.map { AVAsset.chapters($0, languages: [locale.identifier]) } ?? []
    }

    /// The chapters in the first of `preferredLanguages` (BCP 47 identifiers, most preferred
    /// first) that they are available in; empty when they are in none. Blocks until the asset
    /// has loaded.
    public func chapterMetadataGroups(bestMatchingPreferredLanguages preferredLanguages: [String]) -> [AVTimedMetadataGroup] {
        loadedContents.map { AVAsset.chapters($0, languages: preferredLanguages) } ?? []
    }

    /// The chapters in `locale`'s language, loaded without blocking.
    public func loadChapterMetadataGroups(withTitleLocale locale: Locale,
                                          containingItemsWithCommonKeys commonKeys: [AVMetadataKey] = []) async throws -> [AVTimedMetadataGroup] {
        AVAsset.chapters(try await loader.contents(), languages: [locale.identifier])
    }

    /// The chapters in `locale`'s language; `completionHandler` is called on an arbitrary queue
    /// with them, or with nil and the error.
    public func loadChapterMetadataGroups(withTitleLocale locale: Locale, containingItemsWithCommonKeys commonKeys: [AVMetadataKey],
                                          completionHandler: @escaping @Sendable ([AVTimedMetadataGroup]?, (any Error)?) -> Void) {
        whenLoaded(completionHandler) { _, contents in AVAsset.chapters(contents, languages: [locale.identifier]) }
    }

    /// The chapters in the best match of `preferredLanguages`, loaded without blocking.
    public func loadChapterMetadataGroups(bestMatchingPreferredLanguages preferredLanguages: [String]) async throws -> [AVTimedMetadataGroup] {
        AVAsset.chapters(try await loader.contents(), languages: preferredLanguages)
    }

    /// The chapters in the best match of `preferredLanguages`; `completionHandler` is called
    /// on an arbitrary queue with them, or with nil and the error.
    public func loadChapterMetadataGroups(bestMatchingPreferredLanguages preferredLanguages: [String],
                                          completionHandler: @escaping @Sendable ([AVTimedMetadataGroup]?, (any Error)?) -> Void) {
        whenLoaded(completionHandler) { _, contents in AVAsset.chapters(contents, languages: preferredLanguages) }
    }

    /// The chapter locales of loaded contents.
    static func chapterLocales(_ contents: AssetContents) -> [Locale] {
        contents.chapters.isEmpty ? [] : [chapterLocale(contents)]
    }

    /// The locale of the chapter titles: their language's BCP 47 tag, "und" when unknown.
    static func chapterLocale(_ contents: AssetContents) -> Locale {
        Locale(identifier: FFmpegTagFamily.languageTag(forISO639_2: contents.chapterLanguage) ?? "und")
    }

    /// The chapters of loaded contents when their language is one of `languages` (or
    /// undetermined), as timed metadata groups of their titles.
    static func chapters(_ contents: AssetContents, languages: [String]) -> [AVTimedMetadataGroup] {
        let locale = chapterLocale(contents)
        guard contents.chapterLanguage == "und"
            || languages.contains(where: { Locale(identifier: $0).languageCodeIdentifier == locale.languageCodeIdentifier }) else { return [] }
        return contents.chapters.map { chapter in
            let title = AVMutableMetadataItem()
            title.identifier = .commonIdentifierTitle
            title.value = NSString(string: chapter.title)
            title.extendedLanguageTag = locale.identifier
            title.locale = locale
            title.time = chapter.timeRange.start
            title.duration = chapter.timeRange.duration
            return AVTimedMetadataGroup(items: [title], timeRange: chapter.timeRange)
        }
    }
}
