// swift-tools-version:6.1
import PackageDescription

// A package that depends on the library products (RxSwift, RxRelay, RxCocoa, RxTest,
// RxBlocking) resolves swift-atomics and nothing else, and compiles it only on Apple
// platforms, where RxSwift imports it. The playground server behind `rxmarbles serve`
// and its dependencies (Hummingbird, SwiftNIO...) come only with the `Playground`
// trait, the marble generators of RxTest and swift-property-based only with the
// `PropertyTesting` trait; swift-docc-plugin is used by no target, so only this package's own
// `swift package` commands resolve it. The `AppleLockingPath` trait compiles on Linux
// the locking and atomics that Apple platforms use, swift-atomics included, so that CI
// tests them; a dependent that does not enable it compiles what it did before. The
// `ThreadSanitizer` trait is for builds with `--sanitize=thread` (scripts/sanitizers.sh,
// or a dependent's own): it makes every lock of RxSwift one the sanitizer sees.
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]

let package = Package(
    name: "Rivulet",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "RxSwift", targets: ["RxSwift"]),
        .library(name: "RxRelay", targets: ["RxRelay"]),
        .library(name: "RxCocoa", targets: ["RxCocoa"]),
        .library(name: "RxTest", targets: ["RxTest"]),
        .library(name: "RxBlocking", targets: ["RxBlocking"]),
        // Lanes: a running pipeline's subscriptions and events, recorded for drawing
        // (`rxmarbles lanes`) and for writing a TestScheduler test. Not an RxSwift module.
        .library(name: "RxLanes", targets: ["RxLanes"]),
        // RxSwift's dynamic library products, under RxSwift's names, so that a manifest
        // naming one resolves. SwiftPM builds one only for a package that names it.
        .library(name: "RxSwift-Dynamic", type: .dynamic, targets: ["RxSwift"]),
        .library(name: "RxCocoa-Dynamic", type: .dynamic, targets: ["RxCocoa"]),
        .library(name: "RxRelay-Dynamic", type: .dynamic, targets: ["RxRelay"]),
        .library(name: "RxBlocking-Dynamic", type: .dynamic, targets: ["RxBlocking"]),
        .library(name: "RxTest-Dynamic", type: .dynamic, targets: ["RxTest"]),
        .executable(name: "rxmarbles", targets: ["rxmarbles"]),
    ],
    traits: [
        .trait(
            name: "Playground",
            description: "rxmarbles serve: the marble playground's web server (Hummingbird and SwiftNIO)."
        ),
        .trait(
            name: "PropertyTesting",
            description: "RxTest's generators of marble inputs and marble laws, shrunk by swift-property-based."
        ),
        .trait(
            name: "AppleLockingPath",
            description: "On Linux, Apple platforms' locks, atomics and main-thread check (swift-atomics, a Lock per InlineLock), over Linux's system calls: how CI tests that code."
        ),
        .trait(
            name: "ThreadSanitizer",
            description: "For builds with --sanitize=thread: a pthread mutex behind every InlineLock, which ThreadSanitizer intercepts and models as a lock (of Linux's in-place Mutex it sees only atomics), and no inout access to an empty stored field of a LockedPair (which it records at the object's own address)."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.3.0"),
        // Only the playground server uses these, with the Playground trait.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Only RxTest's marble laws use it, with the PropertyTesting trait.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `swift package generate-documentation`: the DocC catalogs, with the operator diagrams.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "RxSwift",
            dependencies: [
                .product(name: "Atomics", package: "swift-atomics", condition: .when(platforms: applePlatforms)),
                .target(name: "AppleLockingPathAtomics", condition: .when(traits: ["AppleLockingPath"])),
                .target(name: "RivuletFutex", condition: .when(platforms: [.linux, .android])),
            ]
        ),
        // The futex calls behind RxSwift's inline lock on Linux (Platform.swift's `LockCell`).
        .target(name: "RivuletFutex"),
        // swift-atomics for RxSwift on Linux under the `AppleLockingPath` trait. A second
        // `.product(name: "Atomics", ...)` entry in RxSwift with the trait's condition
        // links it too, but SwiftPM then warns "ignoring duplicate product 'Atomics'".
        // Without the trait nothing depends on this target and it has no dependency.
        .target(
            name: "AppleLockingPathAtomics",
            dependencies: [
                .product(name: "Atomics", package: "swift-atomics", condition: .when(traits: ["AppleLockingPath"])),
            ]
        ),
        .target(name: "RxRelay", dependencies: ["RxSwift"]),
        .target(name: "RxCocoa", dependencies: ["RxSwift", "RxRelay"]),
        // Virtual time, testable observables and marbles, free of XCTest so that
        // the rxmarbles tool can run them; RxTest re-exports it.
        .target(name: "RxTestCore", dependencies: ["RxSwift"]),
        .target(
            name: "RxTest",
            dependencies: [
                "RxSwift", "RxTestCore",
                .product(name: "PropertyBased", package: "swift-property-based", condition: .when(traits: ["PropertyTesting"])),
            ]
        ),
        .target(name: "RxBlocking", dependencies: ["RxSwift"]),
        .target(name: "RxLanes", dependencies: ["RxSwift"]),
        // The rxmarbles tool's gallery, layout, text and SVG rendering, kept apart from
        // its entry point so that tests can reach them.
        .target(name: "RxMarblesKit", dependencies: ["RxSwift", "RxTestCore", "RxLanes"]),
        // `rxmarbles serve`: the playground's HTTP handling and its page (HTML, CSS and
        // JavaScript shipped as resources). Without the Playground trait the command
        // says how to get it.
        .target(
            name: "RxMarblesServer",
            dependencies: [
                "RxMarblesKit", "RxLanes", "RxSwift", "RxTestCore",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Playground"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Playground"])),
            ],
            resources: [.copy("Page")]
        ),
        .executableTarget(name: "rxmarbles", dependencies: ["RxMarblesKit", "RxMarblesServer", "RxSwift", "RxTestCore"]),
        // The generators of the `*+Arity.generated.swift` files, and `swift run rivulet-generate`,
        // which rewrites them; the test suite checks the committed files with the same code.
        .target(name: "ArityGenerator"),
        .executableTarget(name: "rivulet-generate", dependencies: ["ArityGenerator"]),
        // What the test targets share: the error they send, a locked box, the object of the
        // `with:` operators, a grammar-checking observer, bounded waits, and a scheduler
        // that says when its work has settled.
        .target(name: "RivuletTestSupport", dependencies: ["RxSwift"], path: "Tests/TestSupport"),
        .testTarget(
            name: "RxSwiftTests",
            dependencies: ["RxSwift", "RxTest", "RxBlocking", "RivuletTestSupport", "ArityGenerator"]
        ),
        .testTarget(
            name: "RxTestTests",
            dependencies: [
                "RxSwift", "RxTest", "RivuletTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based", condition: .when(traits: ["PropertyTesting"])),
            ]
        ),
        // The explored scenarios: every stateful part of the library raced by threads
        // under RxTest's schedule explorer, in one catalogue that scripts/explore.sh runs.
        .testTarget(
            name: "ExplorationTests",
            dependencies: ["RxSwift", "RxRelay", "RxCocoa", "RxTest", "RxBlocking", "RxLanes", "RivuletTestSupport"]
        ),
        .testTarget(name: "RxLanesTests", dependencies: ["RxSwift", "RxLanes", "RxTest", "RivuletTestSupport"]),
        .testTarget(name: "RxBlockingTests", dependencies: ["RxSwift", "RxBlocking", "RivuletTestSupport"]),
        .testTarget(name: "RxRelayTests", dependencies: ["RxSwift", "RxRelay", "RxTest", "RivuletTestSupport"]),
        .testTarget(
            name: "RxCocoaTests",
            dependencies: ["RxSwift", "RxRelay", "RxCocoa", "RxTest", "RxBlocking", "RivuletTestSupport"]
        ),
        .testTarget(name: "RxMarblesKitTests", dependencies: ["RxMarblesKit", "RxMarblesServer", "RxLanes", "RxSwift", "RxTestCore", "RivuletTestSupport"]),
        // Real HTTP on a loopback port through URLSession: no HTTP client package to build.
        .testTarget(name: "RxMarblesServerTests", dependencies: ["RxMarblesServer", "RxMarblesKit", "RxLanes", "RivuletTestSupport"]),
        // Built in the Swift 5 language mode: RxSwift code written in that mode compiles unchanged.
        .testTarget(
            name: "Swift5CompatibilityTests",
            dependencies: ["RxSwift", "RxTest", "RxBlocking"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
