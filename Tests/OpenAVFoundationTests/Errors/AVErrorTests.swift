import Foundation
import MediaEngine
import Testing
@testable import OpenAVFoundation

@Suite("AVError", .timeLimit(.minutes(10)))
struct AVErrorTests {
    @Test("Code raw values equal Apple's")
    func rawValues() {
        #expect(AVError.Code.unknown.rawValue == -11800)
        #expect(AVError.Code.outOfMemory.rawValue == -11801)
        #expect(AVError.Code.diskFull.rawValue == -11807)
        #expect(AVError.Code.deviceWasDisconnected.rawValue == -11808)
        #expect(AVError.Code.maximumDurationReached.rawValue == -11810)
        #expect(AVError.Code.exportFailed.rawValue == -11820)
        #expect(AVError.Code.decodeFailed.rawValue == -11821)
        #expect(AVError.Code.fileAlreadyExists.rawValue == -11823)
        #expect(AVError.Code.fileFormatNotRecognized.rawValue == -11828)
        #expect(AVError.Code.fileFailedToParse.rawValue == -11829)
        #expect(AVError.Code.noImageAtTime.rawValue == -11832)
        #expect(AVError.Code.failedToParse.rawValue == -11853)
        #expect(AVError.Code.formatUnsupported.rawValue == -11864)
        #expect(AVError.Code.operationCancelled.rawValue == -11878)
        #expect(AVError.Code.encodeFailed.rawValue == -11883)
        #expect(AVError.Code(rawValue: -11802) == nil)
        #expect(AVError.Code(rawValue: -11828) == .fileFormatNotRecognized)
    }

    @Test("raw values are unique and in AVFoundation's range")
    func rawValuesUnique() {
        let values = AVError.Code.allCases.map(\.rawValue)
        #expect(Set(values).count == values.count)
        #expect(values.allSatisfy { (-11899)...(-11800) ~= $0 })
    }

    @Test("static shortcuts return the matching code")
    func shortcuts() {
        #expect(AVError.diskFull == AVError.Code.diskFull)
        #expect(AVError.unknown == AVError.Code.unknown)
        #expect(AVError(.fileFormatNotRecognized).code == AVError.fileFormatNotRecognized)
    }

    @Test("bridges to NSError in AVFoundationErrorDomain with the raw code")
    func bridging() {
        let error: any Error = AVError(.fileFormatNotRecognized, userInfo: ["extra": "value"])
        let nsError = error as NSError
        #expect(nsError.domain == AVFoundationErrorDomain)
        #expect(nsError.domain == "AVFoundationErrorDomain")
        #expect(nsError.code == -11828)
        #expect(nsError.userInfo["extra"] as? String == "value")
        #expect(AVError.errorDomain == "AVFoundationErrorDomain")
        #expect(AVError(_nsError: nsError).code == .fileFormatNotRecognized)
    }

    @Test("user-info keys have Apple's values")
    func keys() {
        #expect(AVErrorDeviceKey == "AVErrorDeviceKey")
        #expect(AVErrorTimeKey == "AVErrorTimeKey")
        #expect(AVErrorFileSizeKey == "AVErrorFileSizeKey")
        #expect(AVErrorPIDKey == "AVErrorPIDKey")
        #expect(AVErrorRecordingSuccessfullyFinishedKey == "AVErrorRecordingSuccessfullyFinishedKey")
        #expect(AVErrorMediaTypeKey == "AVErrorMediaTypeKey")
        #expect(AVErrorMediaSubTypeKey == "AVErrorMediaSubTypeKey")
        #expect(AVErrorPresentationTimeStampKey == "AVErrorPresentationTimeStampKey")
        #expect(AVErrorPersistentTrackIDKey == "AVErrorPersistentTrackIDKey")
        #expect(AVErrorFileTypeKey == "AVErrorFileTypeKey")
        #expect(AVErrorDiscontinuityFlagsKey == "AVErrorDiscontinuityFlagsKey")
    }

    @Test("recordingSuccessfullyFinished reads AVErrorRecordingSuccessfullyFinishedKey")
    func recordingSuccessfullyFinished() {
        #expect(AVError(.diskFull, userInfo: [AVErrorRecordingSuccessfullyFinishedKey: true]).recordingSuccessfullyFinished == true)
        #expect(AVError(.diskFull, userInfo: [AVErrorRecordingSuccessfullyFinishedKey: false]).recordingSuccessfullyFinished == false)
        #expect(AVError(.diskFull, userInfo: [AVErrorRecordingSuccessfullyFinishedKey: NSNumber(value: true)]).recordingSuccessfullyFinished == true)
        #expect(AVError(.diskFull).recordingSuccessfullyFinished == nil)
    }

    @Test("other user-info accessors read their keys")
    func accessors() {
        let pts = CMTime(value: 3, timescale: 30)
        let error = AVError(.mediaDiscontinuity, userInfo: [
            AVErrorTimeKey: pts,
            AVErrorPresentationTimeStampKey: pts,
            AVErrorFileSizeKey: Int64(1_234_567),
            AVErrorPIDKey: 42,
            AVErrorMediaTypeKey: "vide",
            AVErrorMediaSubTypeKey: [1_635_148_593],
            AVErrorPersistentTrackIDKey: Int32(2),
            AVErrorFileTypeKey: "com.apple.quicktime-movie",
        ])
        #expect(error.time == pts)
        #expect(error.presentationTimeStamp == pts)
        #expect(error.fileSize == 1_234_567)
        #expect(error.processID == 42)
        #expect(error.mediaType == .video)
        #expect(error.mediaSubtypes == [1_635_148_593])
        #expect(error.persistentTrackID == 2)
        #expect(error.fileType == .mov)
        #expect(AVError(.unknown).time == nil)
        #expect(AVError(.unknown).fileSize == nil)
    }

    @Test("catch AVError.diskFull matches only that code")
    func catchPattern() {
        var caught = "none"
        do {
            throw AVError(.diskFull)
        } catch AVError.fileFormatNotRecognized {
            caught = "wrong code"
        } catch AVError.diskFull {
            caught = "diskFull"
        } catch {
            caught = "fallthrough"
        }
        #expect(caught == "diskFull")

        // An NSError in the AVFoundation domain matches too, as on Apple platforms.
        do {
            throw NSError(domain: AVFoundationErrorDomain, code: -11807)
        } catch AVError.diskFull {
            caught = "bridged"
        } catch {
            caught = "fallthrough"
        }
        #expect(caught == "bridged")

        // Same raw value in another domain does not match.
        #expect(!(AVError.Code.diskFull ~= NSError(domain: NSCocoaErrorDomain, code: -11807)))
    }

    @Test("localizedDescription is not empty")
    func localizedDescription() {
        #expect(!AVError(.diskFull).localizedDescription.isEmpty)
        let error = AVError(.fileFormatNotRecognized, reason: "The file is not a movie.")
        #expect(error.localizedDescription == "Cannot Open")
        #expect((error as NSError).localizedFailureReason == "The file is not a movie.")
        #expect(error.failureReason == "The file is not a movie.")
    }

    @Test("FFmpeg's unexplained -1 is not shown as a POSIX \"Operation not permitted\"; opening a file keeps EPERM")
    func unexplainedFFmpegFailure() {
        // Seeking, demuxers and decoders return a bare -1, which is AVERROR(EPERM) by value.
        let seeking = AVError(EngineError(ffmpegCode: -EPERM, operation: "seeking to 1.0 s"), fallback: .decodeFailed)
        #expect(seeking.code == .decodeFailed)
        #expect(seeking.underlyingError == nil)
        #expect(seeking.failureReason?.contains("Operation not permitted") == false, "\(seeking.failureReason ?? "")")
        #expect(seeking.failureReason?.contains("seeking to 1.0 s") == true)
        // Opening a file the system refuses is a file error, with the POSIX error underneath.
        let opening = AVError(EngineError(ffmpegCode: -EPERM, operation: "opening a.mov", opensFile: true), fallback: .decodeFailed)
        #expect(opening.code == .failedToLoadMediaData)
        #expect((opening.underlyingError as NSError?)?.domain == NSPOSIXErrorDomain)
        #expect((opening.underlyingError as NSError?)?.code == Int(EPERM))
    }

    @Test("engine convenience keeps the underlying error and extra keys")
    func convenience() {
        let cause = NSError(domain: "FFmpeg", code: -1_094_995_529)
        let error = AVError(.decodeFailed, reason: "bad frame", underlying: cause,
                            userInfo: [AVErrorPresentationTimeStampKey: CMTime(value: 1, timescale: 1)])
        let underlying = error.underlyingError as NSError?
        #expect(underlying?.domain == "FFmpeg")
        #expect(underlying?.code == -1_094_995_529)
        #expect(error.presentationTimeStamp == CMTime(value: 1, timescale: 1))
        #expect(error.localizedDescription == "Cannot Decode")
    }

    @Test("equality compares code and user info; hashing is consistent")
    func hashable() {
        #expect(AVError(.diskFull) == AVError(.diskFull))
        #expect(AVError(.diskFull) != AVError(.unknown))
        #expect(AVError(.diskFull, userInfo: ["a": 1]) != AVError(.diskFull, userInfo: ["a": 2]))
        #expect(AVError(.diskFull, userInfo: ["a": 1]) == AVError(.diskFull, userInfo: ["a": 1]))
        #expect(Set([AVError(.diskFull), AVError(.diskFull), AVError(.unknown)]).count == 2)
    }
}
