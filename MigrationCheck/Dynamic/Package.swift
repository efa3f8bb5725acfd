// swift-tools-version:5.9
import PackageDescription

// An app that links RxSwift's dynamic library products and asks for RxSwift 6.10's patch
// releases only (`.upToNextMinor`). scripts/migration-check.sh resolves it through the
// same mirror of RxSwift's URL as the package above, builds every target, runs `counter`
// and the tests.
//
// SwiftPM copies a dynamic product's whole target closure into its library, so each of
// RxSwift-Dynamic, RxRelay-Dynamic, RxCocoa-Dynamic, RxBlocking-Dynamic and
// RxTest-Dynamic holds its own RxSwift. A program may link one of them and nothing else
// of the package: with two copies of RxSwift in one process, Swift's runtime finds the
// protocols of one copy and the types of the other (seen: "failed to demangle
// superclass of PassThroughSink ... does not conform to protocol ObserverType").
let package = Package(
    name: "CounterFeature",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ReactiveX/RxSwift.git", .upToNextMinor(from: "6.10.0")),
    ],
    targets: [
        // Names every dynamic product; built, and linked into no program.
        .target(
            name: "EveryDynamicProduct",
            dependencies: [
                .product(name: "RxSwift-Dynamic", package: "RxSwift"),
                .product(name: "RxRelay-Dynamic", package: "RxSwift"),
                .product(name: "RxCocoa-Dynamic", package: "RxSwift"),
                .product(name: "RxBlocking-Dynamic", package: "RxSwift"),
                .product(name: "RxTest-Dynamic", package: "RxSwift"),
            ]
        ),
        // A view model and the program that runs it, on RxCocoa-Dynamic alone (it brings
        // RxSwift and RxRelay).
        .target(
            name: "CounterFeature",
            dependencies: [.product(name: "RxCocoa-Dynamic", package: "RxSwift")]
        ),
        .executableTarget(name: "counter", dependencies: ["CounterFeature"]),
        // Tests on RxTest-Dynamic alone (it brings RxSwift).
        .testTarget(
            name: "VirtualTimeTests",
            dependencies: [.product(name: "RxTest-Dynamic", package: "RxSwift")]
        ),
    ]
)
