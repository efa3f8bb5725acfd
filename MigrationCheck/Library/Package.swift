// swift-tools-version:5.9
import PackageDescription

// A library written for RxSwift as many are: RxSwift's URL without `.git`, and the
// RxSwift product named by name alone ("RxSwift"), which SwiftPM resolves only when the
// package's identity is `rxswift`. scripts/migration-check.sh mirrors both spellings of
// the URL to Rivulet; this package must resolve and build through them unchanged.
let package = Package(
    name: "RxFormatting",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    products: [
        .library(name: "RxFormatting", targets: ["RxFormatting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/ReactiveX/RxSwift", from: "6.10.0"),
    ],
    targets: [
        .target(
            name: "RxFormatting",
            dependencies: ["RxSwift", .product(name: "RxRelay", package: "RxSwift")]
        ),
    ]
)
