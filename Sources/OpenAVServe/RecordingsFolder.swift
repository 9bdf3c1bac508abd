import Foundation
import Hummingbird

/// The folder `openav serve` records into: the only place the page lists, reads and deletes
/// files, and only the files it made there (`recording-….mov`, `photo-….jpg`), so that a
/// folder given by mistake (a home folder) exposes nothing else.
///
/// A name from a request is used only when it is such a plain file name (letters, digits, `.`,
/// `-` and `_`) naming a regular file in the folder itself: `..`, absolute paths, encoded
/// slashes, hidden files and symbolic links (even to files inside) are refused, so nothing
/// outside the folder is ever read or removed. Files are opened without following links or
/// blocking (`O_NOFOLLOW`, `O_NONBLOCK`: a pipe put in a file's place is not waited on) and
/// removed with `unlink`, which never removes a folder.
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
            guard Self.isOwnName(name), let status = regularFileStatus(name) else { return nil }
            return Entry(name: name, size: Int64(status.st_size),
                         modified: Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)))
        }.sorted { ($0.modified, $0.name) > ($1.modified, $1.name) }
    }

    /// The file a request names, or 404 (no such regular file) / 400 (not a plain name).
    func file(named name: String) throws -> URL {
        guard Self.isOwnName(name) else { throw HTTPError(.badRequest, message: "not a file name of this folder: \(name)") }
        guard regularFileStatus(name) != nil else { throw HTTPError(.notFound, message: "no recording \(name)") }
        return url.appendingPathComponent(name, isDirectory: false)
    }

    /// Opens the file a request names for reading, refusing symbolic links at the moment of
    /// opening (`O_NOFOLLOW`), not only when it was checked.
    func open(named name: String) throws -> (handle: FileHandle, size: Int64) {
        let path = try file(named: name).path
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw HTTPError(.notFound, message: "no recording \(name)") }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw HTTPError(.notFound, message: "no recording \(name)")
        }
        return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), Int64(status.st_size))
    }

    /// Removes the file a request names.
    func remove(named name: String) throws {
        let path = try file(named: name).path
        guard unlink(path) == 0 else {
            throw HTTPError(.internalServerError, message: "\(name) could not be deleted: \(String(cString: strerror(errno)))")
        }
    }

    /// A file name in the folder that does not exist yet: `prefix-YYYYMMDD-HHMMSS.ext`, with
    /// `-2`, `-3`… added when taken.
    func newFile(prefix: String, pathExtension: String, date: Date = Date()) -> URL {
        candidates(prefix: prefix, pathExtension: pathExtension, date: date).first { !exists($0.path) }!
    }

    /// Writes `contents` into a new file of the folder (named as `newFile` names), created
    /// exclusively (`O_EXCL`): two writers at the same second get two files, and nothing is
    /// ever overwritten.
    func create(prefix: String, pathExtension: String, contents: Data) throws -> URL {
        for url in candidates(prefix: prefix, pathExtension: pathExtension, date: Date()) {
            let descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path,
                                                               NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: contents)
            return url
        }
        fatalError("unreachable: the candidates never end")
    }

    /// `prefix-YYYYMMDD-HHMMSS.ext`, then the same with `-2`, `-3`…, without end.
    private func candidates(prefix: String, pathExtension: String, date: Date) -> some Sequence<URL> {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "\(prefix)-\(formatter.string(from: date))"
        return (1...).lazy.map { [url] number in
            url.appendingPathComponent(number == 1 ? "\(stem).\(pathExtension)" : "\(stem)-\(number).\(pathExtension)")
        }
    }

    /// Whether anything, a dangling symbolic link too, has that path.
    private func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Whether `name` is one the server makes: `recording-….mov` or `photo-….jpg`, of letters,
    /// digits, `.`, `-`, `_`.
    static func isOwnName(_ name: String) -> Bool {
        let isOwn = (name.hasPrefix("recording-") && name.hasSuffix(".mov")) || (name.hasPrefix("photo-") && name.hasSuffix(".jpg"))
        return isOwn && name.utf8.count <= 255
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// The `lstat` of `name` in the folder when it is a regular file (a symbolic link is not).
    private func regularFileStatus(_ name: String) -> stat? {
        var status = stat()
        guard lstat(url.appendingPathComponent(name).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return status
    }
}
