import Foundation

/// The words of an utterance's text, for the delegate's `willSpeakRangeOfSpeechString`:
/// runs of characters between white space, less the punctuation and symbols at their ends,
/// each as its first and last code point (espeak-ng counts code points) and its UTF-16 range.
struct SpeechWords {
    struct Word {
        let codePoints: Range<Int>
        let range: NSRange
    }

    let words: [Word]
    /// The last word told, so that each word is told once, in order.
    private var told = -1

    init(_ text: String) {
        let edges = CharacterSet.punctuationCharacters.union(.symbols)
        var words: [Word] = []
        var current: [(codePoint: Int, utf16: Int, scalar: Unicode.Scalar)] = []
        var codePoint = 0
        var utf16 = 0
        func flush() {
            var run = current[...]
            while let first = run.first, edges.contains(first.scalar) { run = run.dropFirst() }
            while let last = run.last, edges.contains(last.scalar) { run = run.dropLast() }
            if let first = run.first, let last = run.last {
                let end = last.utf16 + last.scalar.utf16.count
                words.append(Word(codePoints: first.codePoint..<(last.codePoint + 1), range: NSRange(location: first.utf16, length: end - first.utf16)))
            }
            current.removeAll()
        }
        for scalar in text.unicodeScalars {
            if CharacterSet.whitespacesAndNewlines.contains(scalar) { flush() } else { current.append((codePoint, utf16, scalar)) }
            codePoint += 1
            utf16 += scalar.utf16.count
        }
        flush()
        self.words = words
    }

    /// The range of the word espeak-ng starts at `codePoint` (the word holding it, or the next
    /// one), unless it was told already; marks it told.
    mutating func tell(codePoint: Int) -> NSRange? {
        guard let index = words.firstIndex(where: { $0.codePoints.upperBound > codePoint }), index > told else { return nil }
        told = index
        return words[index].range
    }
}
