// swift-tools-version: 5.4
// libFuzzer targets for OpenAVFoundation (issue 21): each feeds libFuzzer's inputs, as files,
// through one path of the framework a user's file takes. They build only with the fuzzer
// (libFuzzer supplies `main`; tools version 5.4, the last that does not rename an executable's
// entry point), so they live in this package beside the framework's, not in it:
//
//     swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//
// `scripts/fuzz` builds them, makes their seed corpus with ffmpeg and runs them.
import PackageDescription

let targets = ["probe", "read", "thumbnail", "export", "enqueue"]

let package = Package(
    name: "OpenAVFoundationFuzz",
    products: targets.map { .executable(name: "fuzz-\($0)", targets: ["fuzz-\($0)"]) },
    dependencies: [.package(name: "OpenAVFoundation", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "OpenAVFoundation", package: "OpenAVFoundation")]),
    ] + targets.map {
        .executableTarget(name: "fuzz-\($0)", dependencies: ["FuzzSupport", .product(name: "OpenAVFoundation", package: "OpenAVFoundation")])
    }
)
