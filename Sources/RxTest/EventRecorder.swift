import RxSwift
import RxTestCore

extension TestScheduler {
    /// Subscribes to `source` now, at the scheduler's current time, and returns a
    /// recorder that the test pulls events from one expectation at a time.
    ///
    /// Each expectation runs the scheduler's pending work, one action at a time, until
    /// the event it needs has arrived: there is no `start()` to call and no time to
    /// compute.
    ///
    /// ```swift
    /// let scheduler = TestScheduler(initialClock: 0)
    /// let recorder = scheduler.record(Observable<Int>.timer(.seconds(10), scheduler: scheduler))
    /// recorder.expectNoEvents(for: 10)       // the clock is now 10, nothing arrived
    /// recorder.expectNext(0, at: 10)
    /// recorder.expectCompleted()
    /// recorder.finish()
    /// ```
    ///
    /// Failures are issues at the line of the expectation that failed, with everything
    /// received so far drawn as a marble timeline.
    ///
    /// - Parameters:
    ///   - source: The sequence to record.
    ///   - fileID: The file the recorder is named after in a report of events left
    ///     unconsumed; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line of that report; the caller's by default.
    ///   - column: The column of that report; the caller's by default.
    /// - Returns: The recorder; call ``EventRecorder/finish(fileID:filePath:line:column:)``
    ///   at the end, or let a leak-checked scope check it.
    public func record<Source: ObservableConvertibleType>(
        _ source: Source,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> EventRecorder<Source.Element> {
        EventRecorder(
            source: source.asObservable(), scheduler: self,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Records `source` for the duration of `body`, then finishes the recorder: any event
    /// `body` left unconsumed fails the test.
    ///
    /// ```swift
    /// scheduler.test(viewModel.isValid) { valid in
    ///     valid.expectNext(false)
    ///     input.onNext("long enough")
    ///     valid.expectNext(true)
    /// }
    /// ```
    public func test<Source: ObservableConvertibleType, Result>(
        _ source: Source,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ body: (EventRecorder<Source.Element>) throws -> Result
    ) rethrows -> Result {
        let recorder = record(source, fileID: fileID, filePath: filePath, line: line, column: column)
        defer { recorder.finish(fileID: fileID, filePath: filePath, line: line, column: column) }
        return try body(recorder)
    }
}

/// Events of one subscription, pulled one expectation at a time in virtual time, in the
/// style of Turbine: `expectNext`, `expectCompleted`, `expectError`, `expectNoEvents(for:)`.
///
/// Every expectation consumes events in order. When the next event has not arrived yet,
/// the expectation runs the scheduler's pending work one action at a time until it does
/// (or until no work is left), so the virtual clock is exactly where the event happened.
///
/// Events left unconsumed are a failure: at ``finish(fileID:filePath:line:column:)``,
/// at ``expectNoMoreEvents(fileID:filePath:line:column:)``, at the end of a scope with
/// the leak check (``withRxLeakCheck(_:fileID:filePath:line:column:_:)``, the
/// `.rxLeakCheck` and `.virtualTime` traits), or otherwise when the recorder is released
/// unfinished.
///
/// A recorder is meant to be used from the test's own thread, between runs of the
/// scheduler; events may arrive from any thread.
public final class EventRecorder<Element>: @unchecked Sendable {
    /// The scheduler whose work the expectations run.
    public let scheduler: TestScheduler
    /// At most this many scheduled actions run for one expectation: a periodic timer
    /// that never produces the awaited event fails the expectation instead of looping.
    public var actionBudget = 100_000

    private let observer: TestableObserver<Element>
    private let subscription = SingleAssignmentDisposable()
    private let site: CallSite
    private let progress = LockedState(Progress())

    private struct Progress {
        var consumed = 0
        var finished = false
    }

    init(source: Observable<Element>, scheduler: TestScheduler, site: CallSite) {
        self.scheduler = scheduler
        self.site = site
        observer = TestableObserver(scheduler: scheduler)
        guard let registry = TestScopeTracker.current else {
            subscription.setDisposable(source.subscribe(observer))
            return
        }
        subscription.setDisposable(registry.during("record", at: site.sourceSite) { source.subscribe(observer) })
        registry.addEndCheck { [weak self] in
            guard let self, let message = self.checkAtScopeEnd() else { return nil }
            return ScopeFinding(message: message, site: self.site.sourceSite)
        }
    }

    deinit {
        guard !progress.current.finished else { return }
        subscription.dispose()
        if let message = unconsumedMessage(headline: "EventRecorder created at \(site.fileID):\(site.line) was released") {
            reportFailure(message, at: site)
        }
    }

    /// Every event received so far, consumed or not, with its virtual time.
    public var events: [Recorded<Event<Element>>] {
        observer.events
    }

    /// The events received but not consumed by an expectation yet.
    public var unconsumedEvents: [Recorded<Event<Element>>] {
        Array(observer.events.dropFirst(progress.current.consumed))
    }

    // MARK: - Elements

    /// Expects the next event to be `next(expected)`, at virtual time `time` when given.
    ///
    /// - Returns: Whether it was.
    @discardableResult
    public func expectNext(
        _ expected: Element,
        at time: TestTime? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool where Element: Equatable {
        let name = "expectNext(\(expected)\(time.map { ", at: \($0)" } ?? ""))"
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return expect(name, at: time, site: site) { $0.element == expected ? () : nil } != nil
    }

    /// Expects the next event to be a `next` (at `time` when given) and returns its
    /// element, for elements that are not `Equatable` or need a closer look.
    ///
    /// - Returns: The element, or `nil` after a failure.
    @discardableResult
    public func expectNext(
        at time: TestTime? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Element? {
        let name = "expectNext(\(time.map { "at: \($0)" } ?? ""))"
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return expect(name, at: time, site: site) { $0.element }
    }

    /// Expects the next events to be `next(values[0])`, `next(values[1])`, ... in order.
    ///
    /// - Returns: Whether they were; the first mismatch is reported and ends the check.
    @discardableResult
    public func expectNext(
        values: [Element],
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool where Element: Equatable {
        for value in values {
            if !expectNext(value, fileID: fileID, filePath: filePath, line: line, column: column) {
                return false
            }
        }
        return true
    }

    /// Expects the next `count` events to be `next` events and returns their elements.
    ///
    /// - Returns: The elements, fewer after a failure.
    @discardableResult
    public func expectNext(
        count: Int,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> [Element] {
        precondition(count >= 0, "Rivulet: expectNext(count:) needs a count of 0 or more, got \(count).")
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        var elements: [Element] = []
        while elements.count < count {
            let name = "expectNext(count: \(count)) (element \(elements.count + 1))"
            guard let element = expect(name, at: nil, site: site, matching: { $0.element }) else { return elements }
            elements.append(element)
        }
        return elements
    }

    /// Skips the next `count` events, which must be `next` events.
    public func skip(
        _ count: Int,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let name = "skip(\(count))"
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        precondition(count >= 0, "Rivulet: skip(_:) needs a count of 0 or more, got \(count).")
        for _ in 0..<count {
            guard let (index, recorded) = pull(name, at: site) else { return }
            if recorded.value.isStopEvent {
                fail(name, got: index, at: site)
                return
            }
        }
    }

    /// Expects the next event, whatever it is, and returns it with its time.
    @discardableResult
    public func expectEvent(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Recorded<Event<Element>>? {
        pull("expectEvent()", at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))?.1
    }

    // MARK: - Terminal events

    /// Expects the next event to be `completed`, at virtual time `time` when given.
    ///
    /// - Returns: Whether it was.
    @discardableResult
    public func expectCompleted(
        at time: TestTime? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        let name = "expectCompleted(\(time.map { "at: \($0)" } ?? ""))"
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return expect(name, at: time, site: site) { $0.isCompleted ? () : nil } != nil
    }

    /// Expects the next event to be an error (at `time` when given) and returns it.
    ///
    /// - Returns: The error, or `nil` after a failure.
    @discardableResult
    public func expectError(
        at time: TestTime? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Swift.Error? {
        let name = "expectError(\(time.map { "at: \($0)" } ?? ""))"
        return expectError(name, at: time, site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) { _ in true }
    }

    /// Expects the next event to be an error equal to `expected` (same type, domain, code
    /// and description, as RxTest compares errors).
    ///
    /// - Returns: Whether it was.
    @discardableResult
    public func expectError(
        _ expected: Swift.Error,
        at time: TestTime? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        let name = "expectError(\(expected)\(time.map { ", at: \($0)" } ?? ""))"
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return expectError(name, at: time, site: site) { errorsAreEqual($0, expected) } != nil
    }

    /// Expects the next event to be an error that `matches` accepts.
    ///
    /// ```swift
    /// recorder.expectError { ($0 as? URLError)?.code == .timedOut }
    /// ```
    ///
    /// - Returns: The error, or `nil` after a failure.
    @discardableResult
    public func expectError(
        at time: TestTime? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        matching matches: (Swift.Error) -> Bool
    ) -> Swift.Error? {
        let name = "expectError(matching:\(time.map { " at: \($0)" } ?? ""))"
        return expectError(name, at: time, site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), matching: matches)
    }

    private func expectError(_ name: String, at time: TestTime?, site: CallSite, matching matches: (Swift.Error) -> Bool) -> Swift.Error? {
        expect(name, at: time, site: site) { event in
            guard let error = event.error, matches(error) else { return nil }
            return error
        }
    }

    /// The one step behind every expectation: takes the next event (a missing one is
    /// reported by `pull`), and returns what `match` makes of it when it came at `time`
    /// (any time when `nil`); otherwise reports the mismatch under `name` and returns `nil`.
    private func expect<Matched>(
        _ name: String,
        at time: TestTime?,
        site: CallSite,
        matching match: (Event<Element>) -> Matched?
    ) -> Matched? {
        guard let (index, recorded) = pull(name, at: site) else { return nil }
        if time == nil || recorded.time == time, let matched = match(recorded.value) {
            return matched
        }
        fail(name, got: index, at: site)
        return nil
    }

    // MARK: - Silence

    /// Expects nothing to arrive during the next `ticks` ticks of virtual time: runs the
    /// work due before `clock + ticks`, then sets the clock to `clock + ticks` (work due
    /// exactly then has not run yet). Unconsumed events received earlier fail it too.
    ///
    /// ```swift
    /// input.onNext("a")                  // debounce(.seconds(10)) downstream
    /// recorder.expectNoEvents(for: 10)   // 0 ..< 10: nothing
    /// recorder.expectNext("a", at: 10)
    /// ```
    ///
    /// - Returns: Whether nothing arrived; a failure stops at the first event.
    @discardableResult
    public func expectNoEvents(
        for ticks: TestTime,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        precondition(ticks >= 0, "Rivulet: expectNoEvents(for:) needs 0 ticks or more, got \(ticks).")
        let start = scheduler.clock
        let end = start + ticks
        let name = "expectNoEvents(for: \(ticks)) (time \(start) ..< \(end))"
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        if failOnArrival(name, at: site) || refuseWhileRunning(name, at: site) { return false }
        var steps = 0
        while let due = scheduler.nextActionTime, due < end {
            steps += 1
            if steps > actionBudget {
                reportFailure(failure("\(name) failed: more than \(actionBudget) scheduled actions ran before time \(end) (clock at \(scheduler.clock)); a periodic timer with a short period?", marking: nil), at: site)
                return false
            }
            guard scheduler.runNextAction(until: end - 1) else { break }
            if failOnArrival(name, at: site) { return false }
        }
        let clock = scheduler.clock
        if clock < end {
            scheduler.sleep(end - clock)
        }
        return true
    }

    /// Expects no event to be waiting unconsumed right now; does not run the scheduler.
    ///
    /// - Returns: Whether none was.
    @discardableResult
    public func expectNoEvents(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        !failOnUnconsumed("expectNoEvents()", at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Expects the sequence to stay silent from now on: nothing waiting unconsumed, and
    /// nothing arriving while the scheduler runs all its remaining work (at most
    /// `actionBudget` actions).
    ///
    /// - Returns: Whether it stayed silent.
    @discardableResult
    public func expectNoMoreEvents(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        let name = "expectNoMoreEvents()"
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        if failOnUnconsumed(name, at: site) { return false }
        if isTerminated { return true }
        if refuseWhileRunning(name, at: site) { return false }
        var steps = 0
        while scheduler.runNextAction() {
            if failOnArrival(name, at: site) { return false }
            steps += 1
            if steps >= actionBudget {
                reportFailure(failure("\(name) failed: the scheduler still had work after \(actionBudget) actions (clock at \(scheduler.clock)); a periodic timer that is never disposed?", marking: nil), at: site)
                return false
            }
        }
        return true
    }

    // MARK: - Ending

    /// Ends the recording: fails when events are left unconsumed, then disposes the
    /// subscription. A recorder that is finished is not checked again.
    ///
    /// - Returns: Whether every event was consumed.
    @discardableResult
    public func finish(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        if markFinished() { return true }
        if let message = unconsumedMessage(headline: "finish() failed") {
            reportFailure(message, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            return false
        }
        return true
    }

    /// Disposes the subscription and ignores whatever was not consumed.
    public func cancel() {
        progress.withLock { $0.finished = true }
        subscription.dispose()
    }

    /// Whether the recorder was finished or cancelled.
    public var isFinished: Bool {
        progress.current.finished
    }

    /// The check a leak-checked scope runs at its end: the unconsumed events, as a
    /// message, unless the recorder was finished.
    func checkAtScopeEnd() -> String? {
        if markFinished() { return nil }
        return unconsumedMessage(headline: "EventRecorder created at \(site.fileID):\(site.line) ended")
    }

    /// Marks the recorder finished and disposes the subscription; returns whether it
    /// was finished already.
    private func markFinished() -> Bool {
        let wasFinished = progress.withLock { progress -> Bool in
            defer { progress.finished = true }
            return progress.finished
        }
        subscription.dispose()
        return wasFinished
    }

    // MARK: - Pulling

    private var isTerminated: Bool {
        observer.events.last?.value.isStopEvent ?? false
    }

    private func firstUnconsumedIndex() -> Int? {
        let consumed = progress.current.consumed
        return consumed < observer.events.count ? consumed : nil
    }

    private func consume(through index: Int) {
        progress.withLock { $0.consumed = max($0.consumed, index + 1) }
    }

    private func consumeAll() {
        let count = observer.events.count
        progress.withLock { $0.consumed = count }
    }

    /// The next unconsumed event, running the scheduler one action at a time until one
    /// arrives; reports why none came.
    private func pull(_ name: String, at site: CallSite) -> (Int, Recorded<Event<Element>>)? {
        if progress.current.finished {
            reportFailure("\(name) failed: the recorder was already finished or cancelled.", at: site)
            return nil
        }
        var steps = 0
        while true {
            let events = observer.events
            let consumed = progress.current.consumed
            if consumed < events.count {
                consume(through: consumed)
                return (consumed, events[consumed])
            }
            if let last = events.last, last.value.isStopEvent {
                reportFailure(failure("\(name) failed: nothing more can arrive, the sequence ended with \(last)", marking: nil), at: site)
                return nil
            }
            if scheduler.isRunning {
                reportFailure(failure("\(name) failed: nothing has arrived, and it was called while the scheduler is running; call it from the test, between runs.", marking: nil), at: site)
                return nil
            }
            if steps >= actionBudget {
                reportFailure(failure("\(name) failed: nothing arrived during \(actionBudget) scheduled actions (clock at \(scheduler.clock)); a periodic timer that never leads to an event?", marking: nil), at: site)
                return nil
            }
            guard scheduler.runNextAction() else {
                reportFailure(failure("\(name) failed: nothing arrived, and the scheduler has no work left (clock at \(scheduler.clock))", marking: nil), at: site)
                return nil
            }
            steps += 1
        }
    }

    private func fail(_ name: String, got index: Int, at site: CallSite) {
        let recorded = observer.events[index]
        reportFailure(failure("\(name) failed: got \(recorded)", marking: index), at: site)
    }

    /// Where silence is expected: reports the first unconsumed event as the failure of
    /// `name` (consuming up to it) and returns `true`, or returns `false` when none is
    /// waiting.
    private func failOnArrival(_ name: String, at site: CallSite) -> Bool {
        guard let index = firstUnconsumedIndex() else { return false }
        consume(through: index)
        fail(name, got: index, at: site)
        return true
    }

    /// Reports every unconsumed event as the failure of `name` (consuming them all) and
    /// returns `true`, or returns `false` when none is waiting.
    private func failOnUnconsumed(_ name: String, at site: CallSite) -> Bool {
        guard let message = unconsumedMessage(headline: "\(name) failed") else { return false }
        consumeAll()
        reportFailure(message, at: site)
        return true
    }

    /// Reports that `name` cannot run the scheduler from inside one of its actions and
    /// returns `true`, or returns `false` when the scheduler is idle.
    private func refuseWhileRunning(_ name: String, at site: CallSite) -> Bool {
        guard scheduler.isRunning else { return false }
        reportFailure("\(name) failed: it was called while the scheduler is running; call it from the test, between runs.", at: site)
        return true
    }

    /// A message naming the unconsumed events, or `nil` when there are none.
    private func unconsumedMessage(headline: String) -> String? {
        guard let index = firstUnconsumedIndex() else { return nil }
        let left = Array(observer.events.dropFirst(index))
        let noun = left.count == 1 ? "event was" : "events were"
        return failure(
            "\(headline): \(left.count) \(noun) never consumed: \(left.map { "\($0)" }.joined(separator: ", "))",
            marking: index,
            caption: "first unconsumed"
        )
    }

    /// `headline`, then everything received as a marble timeline with a caret under
    /// event `index`, the scale, the legend and the event list.
    private func failure(_ headline: String, marking index: Int?, caption: String? = nil) -> String {
        recorderFailureMessage(headline, events: observer.events, consumed: progress.current.consumed, marking: index, caption: caption)
    }
}

/// The text of a recorder failure: the headline, then the received events as a marble
/// timeline, a caret under the event in question, the scale, the legend and the list.
///
/// ```
/// expectNext(2) failed: got next(3) @ 230
/// received: ---------------------1-3------|
///                                   ^ next(3) @ 230
/// one column = 10 ticks, first column = time 0
/// received events (3, 2 consumed): [next(1) @ 210, next(3) @ 230, completed @ 300]
/// ```
func recorderFailureMessage<Element>(
    _ headline: String,
    events: [Recorded<Event<Element>>],
    consumed: Int,
    marking index: Int?,
    caption: String? = nil
) -> String {
    var lines = [headline]
    let label = "received: "
    if events.isEmpty {
        lines.append(label + "nothing")
        return lines.joined(separator: "\n")
    }
    let origin = Marbles.failureOrigin(of: events.map(\.time))
    let diagram = Marbles.render(events, origin: origin)
    lines.append(label + diagram.marbles)
    if let index, index < events.count, let column = diagram.column(of: events[index].time) {
        lines.append(String(repeating: " ", count: label.count + column) + "^ " + (caption.map { "\($0): " } ?? "") + "\(events[index])")
    }
    lines.append("one column = \(diagram.frame) tick\(diagram.frame == 1 ? "" : "s"), first column = time \(diagram.origin)")
    if !diagram.legend.isEmpty {
        lines.append("legend: " + diagram.legend.joined(separator: ", "))
    }
    lines.append("received events (\(events.count), \(min(consumed, events.count)) consumed): \(describeRecordedEvents(events))")
    return lines.joined(separator: "\n")
}
