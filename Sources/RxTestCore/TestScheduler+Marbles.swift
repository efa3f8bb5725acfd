import RxSwift

extension TestScheduler {
    /// The virtual time of a diagram's zero point: `origin` when given, otherwise
    /// `Defaults.subscribed` (200) for a diagram with `^` and 0 for any other.
    public static func marbleOrigin(for marbles: String, origin: TestTime? = nil) -> TestTime {
        origin ?? (marbles.contains("^") ? Defaults.subscribed : 0)
    }

    /// A hot observable drawn as marbles (see ``Marbles`` for the grammar): it emits at
    /// absolute times whether or not anyone subscribed.
    ///
    /// ```swift
    /// let xs = try scheduler.createHotObservable("-a-^-b-c-|", values: ["a": 1, "b": 2, "c": 3], frame: 10)
    /// // .next(180, 1), .next(220, 2), .next(240, 3), .completed(260): `^` is 200,
    /// // where `start { }` subscribes
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - values: The element of each key.
    ///   - errors: The error of `#` and of other error keys.
    ///   - frame: Ticks per frame.
    ///   - origin: The virtual time of the zero point; by default 200 when the diagram
    ///     has a `^`, otherwise 0 (the first frame).
    /// - Throws: ``MarbleError`` for malformed marbles.
    public func createHotObservable<T>(
        _ marbles: String,
        values: [String: T],
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1,
        origin: TestTime? = nil
    ) throws(MarbleError) -> TestableObservable<T> {
        createHotObservable(try parseMarbles(marbles, values: values, errors: errors, frame: frame, origin: origin))
    }

    /// A hot observable of `String` keys drawn as marbles: each key is its own value.
    public func createHotObservable(
        _ marbles: String,
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1,
        origin: TestTime? = nil
    ) throws(MarbleError) -> TestableObservable<String> {
        try createHotObservable(marbles, values: [String: String](), errors: errors, frame: frame, origin: origin)
    }

    /// A cold observable drawn as marbles: each subscription gets the events at times
    /// relative to it (the first frame is the subscription).
    ///
    /// ```swift
    /// let ys = try scheduler.createColdObservable("--a--|", values: ["a": 1], frame: 10)
    /// // subscribed at 200: .next(220, 1), .completed(250)
    /// ```
    ///
    /// - Throws: ``MarbleError`` for malformed marbles, or for a `^`, which only hot
    ///   diagrams have.
    public func createColdObservable<T>(
        _ marbles: String,
        values: [String: T],
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1
    ) throws(MarbleError) -> TestableObservable<T> {
        let timeline = try Marbles.parseTimeline(marbles, frame: frame, resolution: resolution)
        if let position = timeline.zeroPosition {
            throw MarbleError(
                .unexpectedCharacter(reason: "a cold observable starts at each subscription, so '^' only belongs in hot marbles"),
                token: "^", position: position, marbles: marbles
            )
        }
        return createColdObservable(try Marbles.resolve(timeline, values: values, errors: errors))
    }

    /// A cold observable of `String` keys drawn as marbles: each key is its own value.
    public func createColdObservable(
        _ marbles: String,
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1
    ) throws(MarbleError) -> TestableObservable<String> {
        try createColdObservable(marbles, values: [String: String](), errors: errors, frame: frame)
    }

    /// Marbles parsed to events at absolute times, with this scheduler's resolution for
    /// time progressions; for expectations such as `res.events == expected`.
    ///
    /// - Parameters:
    ///   - origin: The virtual time of the zero point; by default 200 when the diagram
    ///     has a `^`, otherwise 0.
    public func parseMarbles<T>(
        _ marbles: String,
        values: [String: T],
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1,
        origin: TestTime? = nil
    ) throws(MarbleError) -> [Recorded<Event<T>>] {
        try Marbles.parse(
            marbles, values: values, errors: errors, frame: frame, resolution: resolution,
            origin: TestScheduler.marbleOrigin(for: marbles, origin: origin)
        )
    }

    /// Marbles of `String` keys parsed to events at absolute times.
    public func parseMarbles(
        _ marbles: String,
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1,
        origin: TestTime? = nil
    ) throws(MarbleError) -> [Recorded<Event<String>>] {
        try parseMarbles(marbles, values: [String: String](), errors: errors, frame: frame, origin: origin)
    }

    /// Subscription marbles parsed to subscriptions, to compare with a testable
    /// observable's `subscriptions`; one text per overlapping subscription.
    ///
    /// ```swift
    /// XCTAssertEqual(xs.subscriptions, try scheduler.parseSubscriptions("^-----!", frame: 10))
    /// // [Subscription(200, 260)]
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagrams, each with one or more `^...!` in sequence.
    ///   - frame: Ticks per frame.
    ///   - origin: The virtual time of the first column of every text; by default 200
    ///     (where `start { }` subscribes) when the text has a `^`. Align with the `^`
    ///     of a hot diagram using spaces, which take no time.
    public func parseSubscriptions(
        _ marbles: String...,
        frame: TestTime = 1,
        origin: TestTime? = nil
    ) throws(MarbleError) -> [Subscription] {
        var subscriptions: [Subscription] = []
        for text in marbles {
            subscriptions += try Marbles.parseSubscriptions(
                text, frame: frame, resolution: resolution,
                origin: TestScheduler.marbleOrigin(for: text, origin: origin)
            )
        }
        return subscriptions
    }
}

extension TestScheduler {
    /// A cold observable whose first subscription gets `attempts[0]`, the second
    /// `attempts[1]` and so on, each timed from its subscription; subscriptions past the
    /// last attempt get the last one again. For `retry` tests with the timelines of
    /// `parseEventsAndTimes`:
    ///
    /// ```swift
    /// let source = scheduler.createColdObservable(
    ///     attempts: scheduler.parseEventsAndTimes(timeline: "-a-#|--b|", values: ["a": 1, "b": 2]))
    /// // first subscription: next(1, 1), error(3); second: next(2, 2), completed(3)
    /// ```
    public func createColdObservable<Element>(attempts: [[Recorded<Event<Element>>]]) -> TestableObservable<Element> {
        ColdObservable(scheduler: self, attempts: attempts)
    }
}

