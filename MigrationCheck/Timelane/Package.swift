// swift-tools-version:5.9
import PackageDescription

// A stand-in for RxTimelane, which draws lanes in Apple's Instruments and so builds only
// on Apple platforms: a module of the same name whose `lane` operator has RxTimelane's
// signature, written for RxSwift (its URL, the RxSwift product by name). Code that uses
// it and Rivulet's RxLanes side by side must build with no ambiguous call.
let package = Package(
    name: "RxTimelane",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    products: [
        .library(name: "RxTimelane", targets: ["RxTimelane"]),
    ],
    dependencies: [
        .package(url: "https://github.com/ReactiveX/RxSwift", from: "6.10.0"),
    ],
    targets: [
        .target(name: "RxTimelane", dependencies: ["RxSwift"]),
    ]
)
