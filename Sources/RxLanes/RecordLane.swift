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
    public func recordLane(
        _ name: String,
        in recorder: LaneRecorder = .shared,
        describe: @escaping (Element) -> String = { String(describing: $0) }
    ) -> Observable<Element> {
        let source = asObservable()
        let lane = recorder.lane(named: name, elementType: String(describing: Element.self))
        return Observable.create { observer in
            let subscription = recorder.subscribe(to: lane)
            let upstream = source.subscribe { event in
                switch event {
                case .next(let element): recorder.record(.next(describe(element)), lane: lane, subscription: subscription)
                case .error(let error): recorder.record(.error(String(describing: error)), lane: lane, subscription: subscription)
                case .completed: recorder.record(.completed, lane: lane, subscription: subscription)
                }
                observer.on(event)
            }
            return Disposables.create {
                recorder.record(.disposed, lane: lane, subscription: subscription)
                upstream.dispose()
            }
        }
    }
}
