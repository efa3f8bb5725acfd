// swift-tools-version:6.0
// libFuzzer harnesses for Rivulet's text inputs, kept out of the main package's build.
//
// Mirror/ holds symbolic links to the main package's RxSwift (and its RivuletFutex),
// RxTestCore, RxLanes and RxMarblesKit sources, so that the fuzz targets compile the very
// same code with coverage instrumentation. Build and run through ../scripts/fuzz.sh (see
// the Reliability article of the RxSwift documentation,
// Sources/RxSwift/RxSwift.docc/Reliability.md):
//
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//
// With `-parse-as-library` Swift emits no entry point; SwiftPM links each executable
// with `main` aliased to `<target>_main`, which each target defines to hand over to
// libFuzzer's driver (`LLVMFuzzerRunDriver`, declared by the FuzzerDriver target).
import PackageDescription

let package = Package(
    name: "RivuletFuzz",
    dependencies: [
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.3.0"),
    ],
    targets: [
        .target(
            name: "RxSwift",
            dependencies: [
                .product(name: "Atomics", package: "swift-atomics"),
                .target(name: "RivuletFutex", condition: .when(platforms: [.linux, .android])),
            ],
            path: "Mirror/RxSwift",
            exclude: ["RxSwift.docc"]
        ),
        .target(name: "RivuletFutex", path: "Mirror/RivuletFutex"),
        .target(name: "RxTestCore", dependencies: ["RxSwift"], path: "Mirror/RxTestCore"),
        .target(name: "RxLanes", dependencies: ["RxSwift"], path: "Mirror/RxLanes", exclude: ["RxLanes.docc"]),
        .target(name: "RxMarblesKit", dependencies: ["RxSwift", "RxTestCore", "RxLanes"], path: "Mirror/RxMarblesKit"),
        // The declaration of libFuzzer's driver, called from each target's entry point.
        .target(name: "FuzzerDriver"),
        // Marble text through RxTestCore's parsers, renderer and TestScheduler.
        .executableTarget(name: "FuzzMarbles", dependencies: ["FuzzerDriver", "RxSwift", "RxTestCore"]),
        // rxmarbles: command-line arguments and user marble inputs through the gallery
        // and both renderers.
        .executableTarget(
            name: "FuzzRxMarbles",
            dependencies: ["FuzzerDriver", "RxSwift", "RxTestCore", "RxMarblesKit"]
        ),
        // Lanes recordings: the file format's reader, the drawings and the test writer.
        .executableTarget(name: "FuzzLanes", dependencies: ["FuzzerDriver", "RxLanes", "RxMarblesKit"]),
    ],
    swiftLanguageModes: [.v6]
)
