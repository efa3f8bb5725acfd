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
        PlainProducer(asObservable(), Debounce(dueTime: dueTime, scheduler: scheduler))
    }
}

/// `debounce`'s parameters.
struct Debounce<Element>: PlainOperator {
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        DebounceSink(self, observer: observer, state: DebounceState()).observe(source)
    }
}

/// The state of a `debounce` subscription: the element waiting for its quiet period,
/// and the timer of the latest element (its generation is that element's).
struct DebounceState<Element>: TimedState {
    var timer = TimerSlot()
    var pending: Element?
}

final class DebounceSink<Observer: ObserverType>: TimedSink<Debounce<Observer.Element>, Observer, DebounceState<Observer.Element>>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Element>) {
        let generation: UInt64? = update { state in
            switch event {
            case .next(let element):
                if state.isTerminated { return nil }
                state.value.pending = element
                return state.value.timer.advance()
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
        startTimer(generation, after: parameters.dueTime, on: parameters.scheduler) { self.timerFired($0) }
    }

    private func timerFired(_ firedGeneration: UInt64) {
        update { state in
            if firedGeneration == state.value.timer.generation, let element = state.value.pending {
                state.value.pending = nil
                state.send(.next(element))
            }
        }
    }
}
