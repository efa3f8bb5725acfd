// swift-tools-version:6.0
import PackageDescription

// Code written against RxSwift, built against Rivulet through a SwiftPM mirror of
// RxSwift's URL, as the README tells users to move. scripts/migration-check.sh sets the
// mirror up and runs the tests; this manifest names RxSwift exactly as an app does.
let package = Package(
    name: "MigrationCheck",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [
        // The requirement of an app written for RxSwift's newest 6.10 release.
        .package(url: "https://github.com/ReactiveX/RxSwift.git", from: "6.10.2"),
        // A library that spells RxSwift's URL without `.git` and names it by name.
        .package(path: "Library"),
        // RxTimelane's operator beside Rivulet's lanes.
        .package(path: "Timelane"),
    ],
    targets: [
        .target(
            name: "ProfileFeature",
            dependencies: [
                .product(name: "RxSwift", package: "RxSwift"),
                .product(name: "RxCocoa", package: "RxSwift"),
                .product(name: "RxRelay", package: "RxSwift"),
                .product(name: "RxFormatting", package: "Library"),
                .product(name: "RxTimelane", package: "Timelane"),
                .product(name: "RxLanes", package: "RxSwift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "ProfileFeatureTests",
            dependencies: [
                "ProfileFeature",
                .product(name: "RxSwift", package: "RxSwift"),
                .product(name: "RxCocoa", package: "RxSwift"),
                .product(name: "RxTest", package: "RxSwift"),
                .product(name: "RxBlocking", package: "RxSwift"),
                .product(name: "RxLanes", package: "RxSwift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
