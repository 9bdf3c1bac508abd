import Foundation
import Hummingbird

/// The folder `openav serve` records into: the only place the page lists, reads and deletes
/// files.
///
/// A name from a request is used only when it is a plain file name of letters, digits, `.`,
/// `-` and `_`, not hidden, naming a regular file in the folder itself: `..`, absolute paths,
/// encoded slashes and symbolic links (even to files inside) are refused, so nothing outside
/// the folder is ever read or removed.
struct RecordingsFolder: Sendable {
    /// One file in the folder.
    struct Entry: Sendable {
        let name: String
        let size: Int64
        let modified: Date
    }

    /// The folder, with symbolic links in its own path resolved.
    let url: URL

    /// The folder at `url`, made when missing.
    init(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        self.url = url.resolvingSymlinksInPath()
    }

    /// The regular files in the folder whose names the page may use, newest first.
    func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.compactMap { name in
            guard Self.isPlainName(name), let status = regularFileStatus(name) else { return nil }
            return Entry(name: name, size: Int64(status.st_size),
                         modified: Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)))
        }.sorted { ($0.modified, $0.name) > ($1.modified, $1.name) }
    }

    /// The file a request names, or 404 (no such regular file) / 400 (not a plain name).
    func file(named name: String) throws -> URL {
        guard Self.isPlainName(name) else { throw HTTPError(.badRequest, message: "not a file name of this folder: \(name)") }
        guard regularFileStatus(name) != nil else { throw HTTPError(.notFound, message: "no recording \(name)") }
        return url.appendingPathComponent(name, isDirectory: false)
    }

    /// Opens the file a request names for reading, refusing symbolic links at the moment of
    /// opening (`O_NOFOLLOW`), not only when it was checked.
    func open(named name: String) throws -> (handle: FileHandle, size: Int64) {
        let path = try file(named: name).path
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw HTTPError(.notFound, message: "no recording \(name)") }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw HTTPError(.notFound, message: "no recording \(name)")
        }
        return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), Int64(status.st_size))
    }

    /// A file name in the folder that does not exist yet: `prefix-YYYYMMDD-HHMMSS.ext`, with
    /// `-2`, `-3`… added when taken. Nothing is ever overwritten.
    func newFile(prefix: String, pathExtension: String, date: Date = Date()) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "\(prefix)-\(formatter.string(from: date))"
        var candidate = url.appendingPathComponent("\(stem).\(pathExtension)")
        var number = 2
        while FileManager.default.fileExists(atPath: candidate.path) || isSymbolicLink(candidate.path) {
            candidate = url.appendingPathComponent("\(stem)-\(number).\(pathExtension)")
            number += 1
        }
        return candidate
    }

    /// Whether `name` is a plain, visible file name: letters, digits, `.`, `-`, `_`.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// The `lstat` of `name` in the folder when it is a regular file (a symbolic link is not).
    private func regularFileStatus(_ name: String) -> stat? {
        var status = stat()
        guard lstat(url.appendingPathComponent(name).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return status
    }

    private func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }
}
