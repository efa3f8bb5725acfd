extension ObservableType {
    /// Emits an element only once `dueTime` has passed without another element; on
    /// completion the pending element (if any) is sent at once, then the completion.
    ///
    /// ```
    /// source:   -1-2-----3--4-5------|
    /// debounce(3 ticks)
    /// result:   ------2----------5---|
    /// ```
    ///
    /// - parameter dueTime: How long the source must stay quiet before its latest element goes out.
    /// - parameter scheduler: The scheduler that runs the timers.
    /// - returns: The debounced sequence.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class Debounce<Element>: Producer<Element>, @unchecked Sendable {
    fileprivate let source: Observable<Element>
    fileprivate let dueTime: RxTimeInterval
    fileprivate let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = DebounceSink(parent: self, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

/// The state of a `debounce` subscription: the generation of the latest element and
/// the element waiting for its quiet period.
struct DebounceState<Element> {
    var generation: UInt64 = 0
    var pending: Element?
}

final class DebounceSink<Observer: ObserverType>: SerializedSink<Observer, DebounceState<Observer.Element>>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let timer = TimerSlot()

    init(parent: Debounce<Element>, observer: Observer) {
        dueTime = parent.dueTime
        scheduler = parent.scheduler
        super.init(observer: observer, state: DebounceState())
    }

    func on(_ event: Event<Element>) {
        let generation: UInt64? = update { state in
            switch event {
            case .next(let element):
                if state.isTerminated { return nil }
                state.value.generation &+= 1
                state.value.pending = element
                return state.value.generation
            case .error:
                state.value.pending = nil
                state.send(event)
            case .completed:
                if let element = state.value.pending {
                    state.value.pending = nil
                    state.send(.next(element))
                }
                state.send(.completed)
            }
            return nil
        }
        guard let generation else { return }
        timer.set(scheduler.scheduleRelative(generation, dueTime: dueTime) { [weak self] generation in
            self?.timerFired(generation)
            return Disposables.create()
        }, generation: generation)
    }

    private func timerFired(_ firedGeneration: UInt64) {
        update { state in
            if firedGeneration == state.value.generation, let element = state.value.pending {
                state.value.pending = nil
                state.send(.next(element))
            }
        }
    }

    override func disposeCore() {
        timer.dispose()
    }
}
