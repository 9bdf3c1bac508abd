import Foundation
import Hummingbird

/// The JSON the page's script exchanges with `openav serve`.
enum PageAPI {
    /// `GET /api/devices`: the cameras and microphones discovery finds, with the camera
    /// formats, and what the session uses now.
    struct Devices: ResponseEncodable {
        struct Format: Codable {
            /// The format's index in the camera's `formats`.
            let index: Int
            let width: Int32
            let height: Int32
            /// The pixel format or codec as four characters ('420v', 'avc1', 'jpeg').
            let codec: String
            let maxFrameRate: Double
        }

        struct Device: Codable {
            let id: String
            let name: String
            let formats: [Format]
        }

        let cameras: [Device]
        let microphones: [Device]
        let camera: String?
        let format: Int?
        let microphone: String?
    }

    /// `POST /api/session`: the camera (with a format index) and microphone to use; nil for none.
    struct SessionChoice: Decodable {
        let camera: String?
        let format: Int?
        let microphone: String?
    }

    /// `GET /api/status`.
    struct Status: ResponseEncodable {
        /// The file being recorded, if any.
        let recording: String?
        let recordedSeconds: Double
        let droppedFrames: Int
        /// Browsers watching the live picture.
        let audience: Int
        /// Why the last recording stopped without being asked to, if it did.
        let lastError: String?
        /// Why the session stopped delivering (a camera unplugged), until devices are chosen again.
        let sessionError: String?
    }

    /// A recording started or finished, or a photo taken.
    struct File: ResponseEncodable {
        let name: String
        var seconds: Double?
        var error: String?
    }

    /// `GET /api/recordings`: the files in the recordings folder, newest first.
    struct Recordings: ResponseEncodable {
        struct Item: Codable {
            let name: String
            let size: Int64
            /// Seconds of a movie, nil for a photo or an unreadable file.
            let duration: Double?
            let recording: Bool
        }

        let recordings: [Item]
    }
}
