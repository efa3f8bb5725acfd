// No code: this target brings swift-atomics to RxSwift on Linux when the
// `AppleLockingPath` trait is on (Package.swift), so that Apple platforms' half of
// `Sources/RxSwift/Internal/Locking/Platform.swift` compiles and runs there.
