import Foundation
import RxSwift

/// Converts between `TestScheduler` ticks and real time: one tick is `resolution`
/// seconds, and a real interval rounds to the nearest tick (half up).
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType, IntegerVirtualTimeConverter, Sendable {
    public typealias VirtualTimeUnit = Int
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        self.resolution = resolution
    }

    public func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * resolution)
    }

    public func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit {
        VirtualTimeUnit(time.timeIntervalSince1970 / resolution + 0.5)
    }

    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval {
        TimeInterval(virtualTimeInterval) * resolution
    }

    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit {
        VirtualTimeIntervalUnit(timeInterval / resolution + 0.5)
    }

    public func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit {
        time + offset
    }

    public func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

/// A virtual time scheduler for tests: testable observables emit at given ticks,
/// testable observers record what arrives and when.
///
/// Unlike RxSwift's, it runs on whatever thread the test runs on.
open class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable {
    /// The default times of `start`.
    public struct Defaults {
        /// When the sequence is created.
        public static let created = 100
        /// When it is subscribed to.
        public static let subscribed = 200
        /// When the subscription is disposed.
        public static let disposed = 1000
    }

    // The two constructor settings are not public, as in RxSwift: a public member named
    // `resolution` would shadow what a user's `extension TestScheduler` means by that
    // name (RxSwift's marble helpers read a global `resolution` there).
    /// Whether work scheduled for now runs one tick later (RxSwift's default).
    let simulateProcessingDelay: Bool
    /// Seconds per tick.
    let resolution: Double
    /// Runs the tasks of a virtual-time test, so that `advance` can wait for them.
    package let executor = VirtualTimeExecutor()

    /// Seconds per tick (`resolution`), for the rest of the test kit.
    package var secondsPerTick: Double {
        resolution
    }

    /// A scheduler at `initialClock`; `resolution` is seconds per tick.
    ///
    /// Inside a leak-checked scope (`.rxLeakCheck`, `.virtualTime`, `withRxLeakCheck`)
    /// the scope watches it: work still pending at the scope's end is reported with the
    /// place it was created (`fileID`, `line`).
    public init(
        initialClock: TestTime,
        resolution: Double = 1.0,
        simulateProcessingDelay: Bool = true,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        precondition(resolution > 0, "Rivulet: TestScheduler needs a resolution above 0, got \(resolution).")
        self.simulateProcessingDelay = simulateProcessingDelay
        self.resolution = resolution
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
        TestScopeTracker.current?.adopt(self, at: SourceSite(fileID: fileID, filePath: filePath, line: line, column: 1))
    }

    /// Work due now or earlier runs at the next tick (or now without the processing delay).
    open override func adjustScheduledTime(_ time: Int) -> Int {
        let clock = self.clock
        return time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Runs `action` at virtual time `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// An observable that emits `events` at their absolute times, whether or not anyone
    /// subscribed.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(scheduler: self, recordedEvents: events)
    }

    /// An observable that emits `events` at their times relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(scheduler: self, attempts: [events])
    }

    /// An observer that records every event with the time it arrived.
    ///
    /// In a leak-checked scope, subscriptions made after it are reported as made
    /// "after createObserver at" the caller's line.
    public func createObserver<Element>(
        _ type: Element.Type,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> TestableObserver<Element> {
        TestScopeTracker.current?.noteRxTestCall("createObserver", at: SourceSite(fileID: fileID, filePath: filePath, line: line, column: 1))
        return TestableObserver(scheduler: self)
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at
    /// `disposed`, runs the scheduler, and returns what the observer recorded.
    ///
    /// In a leak-checked scope, subscriptions made while it runs are reported as made
    /// "during scheduler.start at" the caller's line.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: 1)
        guard let registry = TestScopeTracker.current else {
            return run(created: created, subscribed: subscribed, disposed: disposed, create: create)
        }
        return registry.during("scheduler.start", at: site) {
            run(created: created, subscribed: subscribed, disposed: disposed, create: create)
        }
    }

    private func run<Output: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        create: @escaping () -> Output
    ) -> TestableObserver<Output.Element> {
        let state = StartState<Output.Element>()
        let observer = TestableObserver<Output.Element>(scheduler: self)
        _ = scheduleAbsoluteVirtual((), time: created) { _ in
            state.source = create().asObservable()
            return Disposables.create()
        }
        _ = scheduleAbsoluteVirtual((), time: subscribed) { _ in
            state.subscription = state.source?.subscribe(observer)
            return Disposables.create()
        }
        _ = scheduleAbsoluteVirtual((), time: disposed) { _ in
            state.subscription?.dispose()
            state.subscription = nil
            return Disposables.create()
        }
        start()
        return observer
    }

    /// `start` with the default creation (100) and subscription (200) times.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        disposed: TestTime,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(
            created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed,
            fileID: fileID, filePath: filePath, line: line, create: create
        )
    }

    /// `start` with the default times: created 100, subscribed 200, disposed 1000.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        _ create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(
            created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed,
            fileID: fileID, filePath: filePath, line: line, create: create
        )
    }
}

private final class StartState<Element>: @unchecked Sendable {
    var source: Observable<Element>?
    var subscription: Disposable?
}
