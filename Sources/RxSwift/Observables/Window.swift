extension ObservableType {
    /// Splits the elements into windows (observables), each completed when it has
    /// received `count` elements or when `timeSpan` has passed since it opened,
    /// whichever comes first; the next window opens at once.
    ///
    /// ```
    /// source:   -1-2-3----4-----|
    /// window(timeSpan: 6 ticks, count: 3)
    /// result:   a----b-----c----|
    /// a:        -1-2-(3|)
    /// b:             -----4|
    /// c:                   -----|
    /// ```
    ///
    /// The first window is sent on subscription. A window passes on the elements that
    /// arrive after it is subscribed to. The source subscription lasts as long as the
    /// result's subscription or any window's subscription, as in RxSwift.
    ///
    /// - parameter timeSpan: The longest time a window stays open.
    /// - parameter count: The most elements a window receives (0 or less: no limit).
    /// - parameter scheduler: The scheduler that runs the timers.
    /// - returns: The sequence of windows.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        PlainProducer(asObservable(), WindowTimeCount(timeSpan: timeSpan, count: count, scheduler: scheduler))
    }
}

/// `window(timeSpan:count:scheduler:)`'s parameters.
struct WindowTimeCount<SourceElement>: PlainOperator {
    typealias Element = Observable<SourceElement>

    let timeSpan: RxTimeInterval
    let count: Int
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        let sink = WindowTimeCountSink(self, observer: observer)
        sink.run(source: source)
        return sink
    }
}

/// What a `window(timeSpan:count:scheduler:)` subscription does after a state change,
/// in order, outside the lock.
enum WindowTimeCountAction<Element> {
    /// An event for the downstream observer.
    case downstream(Event<Observable<Element>>)
    /// An event for the subject behind a window.
    case window(PublishSubject<Element>, Event<Element>)
}

/// The state of a `window(timeSpan:count:scheduler:)` subscription: the open window, how
/// many elements it received, its timer (the window's number is the timer's generation:
/// a timer only closes the window it was started for), and the actions waiting to be
/// performed.
struct WindowTimeCountState<Element>: SerialDeliveryState {
    var delivery = SerialDelivery<WindowTimeCountAction<Element>>()
    var subject = PublishSubject<Element>()
    var received = 0
    var timer = TimerSlot()
    var terminated = false
}

final class WindowTimeCountSink<Element, Observer: ObserverType>: PlainSink<WindowTimeCount<Element>, Observer>, ObserverType, @unchecked Sendable where Observer.Element == Observable<Element> {
    /// The source subscription and the disposal of the timer: they live while the
    /// result's subscription or any window's subscription does.
    private let group = CompositeDisposable()
    private let refCount: RefCountDisposable
    private let state = LockedState(WindowTimeCountState<Element>())

    override init(_ parameters: WindowTimeCount<Element>, observer: Observer) {
        refCount = RefCountDisposable(disposable: group)
        super.init(parameters, observer: observer)
    }

    func run(source: Observable<Element>) {
        // Holds the state, not the sink: the group, which the sink holds, must not hold it.
        let locked = state
        group.insert(Disposables.create { locked.withLock { $0.timer.dispose() }?.dispose() })
        setUpstream(refCount)
        update { state in
            state.delivery.enqueue(.downstream(.next(makeWindow(state.subject))))
        }
        startTimer(windowID: 0)
        let sourceSubscription = SingleAssignmentDisposable()
        group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        let limit = parameters.count
        let newWindow: UInt64? = update { state in
            if state.terminated { return nil }
            switch event {
            case .next:
                state.delivery.enqueue(.window(state.subject, event))
                state.received += 1
                guard state.received == limit else { return nil }
                return openNewWindow(&state)
            case .error(let error):
                state.terminated = true
                state.delivery.enqueue(.window(state.subject, .error(error)))
                state.delivery.enqueue(.downstream(.error(error)))
            case .completed:
                state.terminated = true
                state.delivery.enqueue(.window(state.subject, .completed))
                state.delivery.enqueue(.downstream(.completed))
            }
            return nil
        }
        if let newWindow { startTimer(windowID: newWindow) }
    }

    /// Completes the current window and queues a new one; returns its number.
    private func openNewWindow(_ state: inout WindowTimeCountState<Element>) -> UInt64 {
        state.delivery.enqueue(.window(state.subject, .completed))
        state.subject = PublishSubject<Element>()
        state.received = 0
        let windowID = state.timer.advance()
        state.delivery.enqueue(.downstream(.next(makeWindow(state.subject))))
        return windowID
    }

    /// A window: subscribing to it keeps the source subscription alive until the
    /// window's subscription ends.
    private func makeWindow(_ subject: PublishSubject<Element>) -> Observable<Element> {
        let refCount = self.refCount
        return Observable.create { observer in
            let release = refCount.retain()
            let subscription = subject.subscribe(observer)
            return Disposables.create(subscription, release)
        }
    }

    /// Schedules the timer of window `windowID`, then stores it in the state (a section
    /// that sends nothing: `withLock`, as `TimedSink`'s).
    private func startTimer(windowID: UInt64) {
        let timer = TimerSlot.schedule(windowID, after: parameters.timeSpan, on: parameters.scheduler) { self.timerFired($0) }
        state.withLock { $0.timer.store(timer, of: windowID) }?.dispose()
    }

    private func timerFired(_ firedWindowID: UInt64) {
        let newWindow: UInt64? = update { state in
            if state.terminated || firedWindowID != state.timer.generation { return nil }
            return openNewWindow(&state)
        }
        if let newWindow { startTimer(windowID: newWindow) }
    }

    /// Runs `transition` under the lock, then performs the actions it queued.
    private func update<Result>(_ transition: (inout WindowTimeCountState<Element>) -> Result) -> Result {
        state.update(transition) { action in
            switch action {
            case .downstream(let event):
                forwardEvent(event)
            case .window(let subject, let event):
                subject.on(event)
            }
        }
    }
}
