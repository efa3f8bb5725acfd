import RxSwift

extension ObservableType {
    /// Records every subscription to this sequence, each of its events and each
    /// subscription's end (disposed, completed or failed) in the lane `name` of
    /// `recorder`, with a monotonic timestamp and the thread it arrived on, and passes
    /// every event on unchanged and in order.
    ///
    /// Put it where a pipeline should be watched, save what the recorder saw, and draw
    /// it with `rxmarbles lanes FILE`, or turn it into a `TestScheduler` test:
    ///
    /// ```swift
    /// let email = emailField.rx.text.orEmpty.asObservable().recordLane("email")
    /// let enabled = viewModel.signInButtonEnabled.recordLane("enabled")
    /// ```
    ///
    /// Subscriptions with the same lane name share the lane; they are numbered from 1.
    /// The lane keeps at most `recorder.capacity` entries, dropping and counting the
    /// oldest.
    ///
    /// The lane holds what reached the operator. An element sent on another thread
    /// while the subscription is being disposed can be recorded before the disposal and
    /// not delivered; nothing is recorded after the disposal.
    ///
    /// - parameter name: The lane's name.
    /// - parameter recorder: Where the entries go: ``LaneRecorder/shared`` by default.
    /// - parameter describe: How an element is written in the recording; its
    ///   description by default. It runs on the thread of the event.
    @inlinable
    public func recordLane(
        _ name: String,
        in recorder: LaneRecorder = .shared,
        describe: @escaping (Element) -> String = { String(describing: $0) }
    ) -> Observable<Element> {
        recordedLane(name, in: recorder, describe: describe)
    }

    /// `recordLane`'s work, inlined into the caller so that it runs specialized for the
    /// element type (unspecialized, every event would look up its type's metadata).
    @inlinable
    func recordedLane(_ name: String, in recorder: LaneRecorder, describe: @escaping (Element) -> String) -> Observable<Element> {
        let source = asObservable()
        let lane = recorder.lane(named: name, elementType: String(describing: Element.self))
        return Observable.deferred {
            let subscription = recorder.subscribe(to: lane)
            return source.do(
                onNext: { recorder.record(.next(describe($0)), lane: lane, subscription: subscription) },
                onError: { recorder.record(.error(String(describing: $0)), lane: lane, subscription: subscription) },
                onCompleted: { recorder.record(.completed, lane: lane, subscription: subscription) },
                onDispose: { recorder.record(.disposed, lane: lane, subscription: subscription) }
            )
        }
    }
}

extension ObservableType where Element: CustomStringConvertible {
    /// `recordLane` for elements with a `description`, which it writes without the
    /// dynamic casts of `String(describing:)` (the benchmark's row 12 pays for it).
    ///
    /// - parameter name: The lane's name.
    /// - parameter recorder: Where the entries go: ``LaneRecorder/shared`` by default.
    /// - parameter describe: How an element is written in the recording; its
    ///   `description` by default. It runs on the thread of the event.
    @inlinable
    public func recordLane(
        _ name: String,
        in recorder: LaneRecorder = .shared,
        describe: @escaping (Element) -> String = { $0.description }
    ) -> Observable<Element> {
        recordedLane(name, in: recorder, describe: describe)
    }
}
