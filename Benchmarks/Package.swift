// swift-tools-version:6.0
import PackageDescription

// Benchmarks for Rivulet, kept apart from the library so that its users never fetch
// OpenCombine. Build in release: `swift build -c release`, or run `./run.sh`.
let package = Package(
    name: "RivuletBenchmarks",
    platforms: [.macOS(.v10_15)],
    dependencies: [
        .package(name: "Rivulet", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    ],
    targets: [
        // Counts heap allocations (Linux/glibc) and hides values from the optimizer.
        .target(name: "AllocCounter"),
        .executableTarget(
            name: "rivulet-bench",
            dependencies: [
                "AllocCounter",
                .product(name: "RxSwift", package: "Rivulet"),
                .product(name: "RxRelay", package: "Rivulet"),
                .product(name: "RxCocoa", package: "Rivulet"),
                .product(name: "RxTest", package: "Rivulet"),
                .product(name: "RxBlocking", package: "Rivulet"),
                .product(name: "RxLanes", package: "Rivulet"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
