// swift-tools-version: 6.0
// OpenAVFoundation: Apple's AVFoundation media framework for Linux, in Swift.
import PackageDescription

let package = Package(
    name: "OpenAVFoundation",
    products: [
        .library(name: "OpenAVFoundation", targets: ["OpenAVFoundation"]),
        .executable(name: "openav", targets: ["openav"]),
        .executable(name: "openav-bench", targets: ["openav-bench"]),
        // The browser page for headless machines (`openav serve`); the framework never depends on it.
        .library(name: "OpenAVServe", targets: ["OpenAVServe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // C shims
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]
        ),
        .systemLibrary(name: "CV4L2", providers: [.apt(["linux-libc-dev"])]),
        .systemLibrary(name: "CPulseAudio", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "x11 xext xfixes", providers: [.apt(["libx11-dev", "libxext-dev", "libxfixes-dev"])]),
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        // Speech synthesis (AVSpeechSynthesizer): espeak-ng.
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        // Barcodes (AVCaptureMetadataOutput): zxing-cpp for matrix codes, ZBar for linear ones,
        // behind a C face of our own (zxing-cpp's API is C++).
        .target(name: "CBarcodes", linkerSettings: [.linkedLibrary("ZXing"), .linkedLibrary("zbar")]),
        // Faces (AVCaptureMetadataOutput): dlib's frontal face detector, behind a C face of our own.
        .target(name: "CFaces", linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("lapack"), .linkedLibrary("blas")]),
        // XTEST, for the tests only: fake pointer button presses on a test X server.
        .systemLibrary(name: "CXTest", pkgConfig: "xtst", providers: [.apt(["libxtst-dev"])]),

        // Apple-compatible base frameworks
        .target(name: "OpenCoreVideo"),
        .target(name: "OpenCoreMedia", dependencies: ["OpenCoreVideo"]),

        // What the device and display layers share: the host clock, the sound-server connection,
        // the one bounded queue type for every hand-off between threads
        .target(name: "HostSystem", dependencies: ["CPulseAudio", "OpenCoreMedia"]),

        // Package-internal engine and device layers
        .target(
            name: "MediaEngine",
            dependencies: ["CFFmpeg", "CPixman", "CBarcodes", "CFaces", "OpenCoreMedia", "OpenCoreVideo", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "CaptureDevices",
            dependencies: ["CV4L2", "CPulseAudio", "CALSA", "CX11", "HostSystem", "MediaEngine", "OpenCoreMedia", "OpenCoreVideo", .product(name: "Logging", package: "swift-log")]
        ),

        // Sound out and windows (SDL2) for playback and previews
        .target(name: "Display", dependencies: ["CPulseAudio", "CSDL2", "HostSystem", "MediaEngine", "OpenCoreVideo"]),

        // Apple's AVFAudio: audio formats, buffers and files, over the engine's FFmpeg parts
        .target(name: "OpenAVFAudio", dependencies: ["OpenCoreMedia", "MediaEngine", "HostSystem", "Display", "CaptureDevices", "CEspeakNG",
                                                      .product(name: "Logging", package: "swift-log")]),

        // The framework
        .target(
            name: "OpenAVFoundation",
            dependencies: ["OpenCoreMedia", "OpenCoreVideo", "HostSystem", "MediaEngine", "CaptureDevices", "Display", "OpenAVFAudio", .product(name: "Logging", package: "swift-log")]
        ),

        // The browser page for headless machines: a web server over a capture session
        .target(
            name: "OpenAVServe",
            dependencies: [
                "OpenAVFoundation", "HostSystem", "MediaEngine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Page")]
        ),

        // The command-line tool
        .executableTarget(
            name: "openav",
            dependencies: ["OpenAVFoundation", "OpenAVServe", "HostSystem", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Benchmarks against ffmpeg (BENCHMARKS.md)
        .executableTarget(name: "openav-bench", dependencies: ["OpenAVFoundation", "MediaEngine"], path: "Benchmarks"),

        // Tests, and what they share: fixtures made by ffmpeg and ffprobe's view of them
        .target(name: "TestSupport", dependencies: ["OpenCoreVideo", "CaptureDevices", "CFFmpeg", "CX11", "CXTest"], path: "Tests/TestSupport"),
        .testTarget(name: "OpenCoreVideoTests", dependencies: ["OpenCoreVideo"]),
        .testTarget(
            name: "OpenCoreMediaTests",
            dependencies: [
                "OpenCoreMedia",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "BigInt", package: "BigInt"),
            ]
        ),
        .testTarget(name: "HostSystemTests", dependencies: ["HostSystem", "OpenCoreMedia"]),
        .testTarget(name: "MediaEngineTests", dependencies: ["MediaEngine", "TestSupport"]),
        // V4L2/: the host test boots scripts/vivid-vm, which runs this target's vivid suite in a VM.
        .testTarget(name: "DisplayTests", dependencies: ["Display", "HostSystem", "TestSupport"]),
        .testTarget(name: "CaptureDevicesTests", dependencies: ["CaptureDevices", "HostSystem", "TestSupport"]),
        .testTarget(name: "OpenAVFAudioTests", dependencies: ["OpenAVFAudio", "CaptureDevices", "HostSystem", "TestSupport"]),
        .testTarget(name: "OpenAVFoundationTests", dependencies: ["OpenAVFoundation", "HostSystem", "TestSupport"]),
        .testTarget(name: "OpenAVServeTests", dependencies: ["OpenAVServe", "OpenAVFoundation", "CaptureDevices", "TestSupport"]),
        .testTarget(name: "openavTests", dependencies: ["openav", "TestSupport"]),
    ],
    // zxing-cpp's headers (CBarcodes) and dlib's (CFaces) are C++17.
    cxxLanguageStandard: .cxx17
)
