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
        WindowTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

final class WindowTimeCount<Element>: Producer<Observable<Element>>, @unchecked Sendable {
    fileprivate let source: Observable<Element>
    fileprivate let timeSpan: RxTimeInterval
    fileprivate let count: Int
    fileprivate let scheduler: SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Observable<Element> {
        let sink = WindowTimeCountSink<Element, Observer>(parent: self, observer: observer)
        sink.run(source: source)
        return sink
    }
}

final class WindowTimeCountSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Observable<Element> {
    /// What the sink does after a state change, in order, outside the lock.
    private enum Action {
        /// An event for the downstream observer.
        case downstream(Event<Observable<Element>>)
        /// An event for the subject behind a window.
        case window(PublishSubject<Element>, Event<Element>)
    }

    private let timeSpan: RxTimeInterval
    private let limit: Int
    private let scheduler: SchedulerType
    private let timer = TimerSlot()
    /// The timer and the source subscription: they live while the result's
    /// subscription or any window's subscription does.
    private let group = CompositeDisposable()
    private let refCount: RefCountDisposable

    // State, guarded by `lock`.
    private let lock = Lock.make()
    private var outbox = SerialOutbox<Action>()
    private var subject = PublishSubject<Element>()
    private var received = 0
    private var windowID: UInt64 = 0
    private var terminated = false

    init(parent: WindowTimeCount<Element>, observer: Observer) {
        timeSpan = parent.timeSpan
        limit = parent.count
        scheduler = parent.scheduler
        refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer)
    }

    func run(source: Observable<Element>) {
        group.insert(timer)
        setUpstream(refCount)
        lock.lock()
        outbox.push(.downstream(.next(makeWindow(subject))))
        unlockAndDeliver()
        startTimer(windowID: 0)
        let sourceSubscription = SingleAssignmentDisposable()
        group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        lock.lock()
        if terminated {
            lock.unlock()
            return
        }
        switch event {
        case .next:
            outbox.push(.window(subject, event))
            received += 1
            guard received == limit else {
                unlockAndDeliver()
                return
            }
            let newWindow = openNewWindowLocked()
            unlockAndDeliver()
            startTimer(windowID: newWindow)
        case .error(let error):
            terminated = true
            outbox.push(.window(subject, .error(error)))
            outbox.push(.downstream(.error(error)))
            unlockAndDeliver()
        case .completed:
            terminated = true
            outbox.push(.window(subject, .completed))
            outbox.push(.downstream(.completed))
            unlockAndDeliver()
        }
    }

    /// Completes the current window and queues a new one; returns its number.
    private func openNewWindowLocked() -> UInt64 {
        outbox.push(.window(subject, .completed))
        subject = PublishSubject<Element>()
        received = 0
        windowID &+= 1
        outbox.push(.downstream(.next(makeWindow(subject))))
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

    private func startTimer(windowID: UInt64) {
        timer.set(scheduler.scheduleRelative(windowID, dueTime: timeSpan) { [weak self] windowID in
            self?.timerFired(windowID)
            return Disposables.create()
        }, generation: windowID)
    }

    private func timerFired(_ firedWindowID: UInt64) {
        lock.lock()
        if terminated || firedWindowID != windowID {
            lock.unlock()
            return
        }
        let newWindow = openNewWindowLocked()
        unlockAndDeliver()
        startTimer(windowID: newWindow)
    }

    /// Releases the lock and performs the queued actions unless another party is
    /// performing them. Call with the lock held.
    private func unlockAndDeliver() {
        guard outbox.claim() else {
            lock.unlock()
            return
        }
        while let action = outbox.next() {
            lock.unlock()
            switch action {
            case .downstream(let event):
                if event.isStopEvent {
                    forwardTerminal(event)
                } else {
                    forwardOn(event)
                }
            case .window(let subject, let event):
                subject.on(event)
            }
            lock.lock()
        }
        lock.unlock()
    }
}
