// swift-tools-version:6.0
import PackageDescription

// Four view models of the kind RxSwift apps are made of (sign-in, login, metronome,
// counter), with their tests in every style such apps use. Depends on Rivulet by path, as an app would.
let package = Package(
    name: "RivuletExamples",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "ExampleViewModels", targets: ["ExampleViewModels"]),
        .executable(name: "sign-in-recording", targets: ["SignInRecording"]),
        .executable(name: "view-model-test-cost", targets: ["ViewModelTestCost"]),
    ],
    dependencies: [
        .package(name: "Rivulet", path: ".."),
        .package(url: "https://github.com/Quick/Nimble.git", from: "14.0.0"),
    ],
    targets: [
        .target(
            name: "ExampleViewModels",
            dependencies: [
                .product(name: "RxSwift", package: "Rivulet"),
                .product(name: "RxRelay", package: "Rivulet"),
                .product(name: "RxCocoa", package: "Rivulet"),
            ]
        ),
        // The sign-in view model on real schedulers, its inputs and outputs recorded in
        // lanes and saved for `rxmarbles lanes`.
        .executableTarget(
            name: "SignInRecording",
            dependencies: [
                "ExampleViewModels",
                .product(name: "RxSwift", package: "Rivulet"),
                .product(name: "RxLanes", package: "Rivulet"),
            ]
        ),
        // What a TestScheduler-driven test of each view model costs in a debug build,
        // against a hand-written floor.
        .executableTarget(
            name: "ViewModelTestCost",
            dependencies: [
                "ExampleViewModels",
                .product(name: "RxSwift", package: "Rivulet"),
                .product(name: "RxCocoa", package: "Rivulet"),
                .product(name: "RxTest", package: "Rivulet"),
            ]
        ),
        .testTarget(
            name: "ExampleViewModelTests",
            dependencies: [
                "ExampleViewModels",
                .product(name: "RxSwift", package: "Rivulet"),
                .product(name: "RxRelay", package: "Rivulet"),
                .product(name: "RxCocoa", package: "Rivulet"),
                .product(name: "RxTest", package: "Rivulet"),
                .product(name: "RxBlocking", package: "Rivulet"),
                .product(name: "Nimble", package: "Nimble"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
