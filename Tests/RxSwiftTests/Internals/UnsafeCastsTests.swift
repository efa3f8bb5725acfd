import Foundation
@testable import RxSwift
import Testing

/// Claims every element type on the direct path on behalf of the observer behind it,
/// which takes only its own, and hands that observer whatever it is sent: the lie a
/// sender cannot see, so the receiver's cast is the first to meet the element.
private final class LyingRelay: ObserverBase, ObserverType, @unchecked Sendable {
    private let receiver: ObserverBase

    init(to receiver: ObserverBase) {
        self.receiver = receiver
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool { true }
    override func receiveNext<T>(_ element: T) { receiver.receiveNext(element) }
    override func receiveCompleted() { receiver.receiveCompleted() }
    override func receiveError(_ error: Swift.Error) { receiver.receiveError(error) }
    func on(_ event: Event<String>) {}
}

/// A class no observer derives from.
private final class Unrelated {}

/// A value with a reference and a payload, to see that nothing of it is lost.
private struct Record: Equatable {
    let name: String
    let values: [Int]
    let object: NSObject
}

/// An error, to cast as an existential.
private struct Failure: Error, Equatable {
    let code: Int
}

/// The cast as a direct-path receiver makes it: two generic parameters, bound to one type.
private func cast<Source, Target>(_ value: Source, to target: Target.Type) -> Target {
    unsafeSameTypeCast(value, to: Target.self)
}

/// `directPath(of:)`'s cast, from a generic parameter.
private func upcast<Source>(_ value: Source) -> Unmanaged<ObserverBase> {
    unsafeUnretainedUpcast(value, to: ObserverBase.self)
}

@Suite("Unsafe casts: the guarded unsafeBitCasts of the fast path")
struct UnsafeCastsTests {
    @Test("unsafeSameTypeCast gives back the value unchanged when the types are one")
    func sameTypeCastPassesValuesThrough() {
        let object = NSObject()
        #expect(cast(42, to: Int.self) == 42)
        #expect(cast(Int.min, to: Int.self) == Int.min)
        #expect(cast("text", to: String.self) == "text")
        #expect(cast(Optional<Int>.none, to: Int?.self) == nil)
        #expect(cast(Optional(7), to: Int?.self) == 7)
        #expect(cast(Record(name: "r", values: [1, 2, 3], object: object), to: Record.self)
            == Record(name: "r", values: [1, 2, 3], object: object))
        #expect(cast(object, to: NSObject.self) === object)
        // `as any Error` keeps the existential closed: `Source` is `any Error`, not `Failure`.
        let error: any Error = Failure(code: 3)
        #expect(cast(error as any Error, to: (any Error).self) as? Failure == Failure(code: 3))
    }

    @Test("an element sent through a real direct path arrives unchanged")
    func directPathElementsArrive() {
        let received = LockedState<[Int]>([])
        let observer = AnonymousObserver<Int>({ _ in }, elementHandler: { value in received.withLock { $0.append(value) } })
        _ = Observable.of(1, 2, 3).subscribe(observer)
        #expect(received.withLock { $0 } == [1, 2, 3])
    }

    @Test("unsafeUnretainedUpcast gives the observer itself")
    func upcastGivesTheSameObject() {
        let observer = AnonymousObserver<Int>({ _ in })
        #expect(upcast(observer).takeUnretainedValue() === observer)
    }

    @Test("unsafeFunctionPointerCast gives a C function that can be called")
    func functionPointerCastCalls() throws {
        typealias Length = @convention(c) (UnsafePointer<CChar>) -> UInt
        let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "strlen"))
        let length = unsafeFunctionPointerCast(symbol, to: Length.self)
        #expect("rivulet".withCString { length($0) } == 7)
    }

    #if DEBUG
    @Test("an element of another type than the receiver's stops a debug build, naming both types")
    func mismatchedElementStops() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let receiver = AnonymousObserver<Int>({ _ in }, elementHandler: { _ in })
            _ = Observable.just("text").subscribe(LyingRelay(to: receiver))
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains(
                "Rivulet: unsafeSameTypeCast: a value of type Swift.String was read as Swift.Int, "
                    + "a cast that holds only between a type and itself."))
        }
    }

    @Test("a reference to a class that is not an ObserverBase stops a debug build, naming both types")
    func unrelatedUpcastStops() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = upcast(Unrelated())
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            // A private type's name has its context in it: `RxSwiftTests.(unknown context at $…).Unrelated`.
            #expect(stderr.contains("Rivulet: unsafeUnretainedUpcast: a value of type RxSwiftTests."))
            #expect(stderr.contains(".Unrelated was read as a reference to RxSwift.ObserverBase, a class it does not derive from."))
        }
    }

    @Test("an address read as a type of another size stops a debug build, naming both types")
    func wideFunctionPointerCastStops() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "strlen") else { return }
            _ = unsafeFunctionPointerCast(symbol, to: (Int, Int).self)
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains(
                "Rivulet: unsafeFunctionPointerCast: an address (Swift.UnsafeMutableRawPointer, 8 bytes) "
                    + "was read as (Swift.Int, Swift.Int) (16 bytes), which is not a C function pointer type."))
        }
    }
    #endif
}
