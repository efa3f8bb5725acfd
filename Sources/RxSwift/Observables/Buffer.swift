extension ObservableType {
    /// Collects the elements into arrays, each sent when it holds `count` elements or
    /// when `timeSpan` has passed since the previous array started, whichever comes
    /// first. An array is sent at each time span even when empty; on completion the
    /// current array is sent, then the completion.
    ///
    /// ```
    /// source:   -1-2-3----4-----|
    /// buffer(timeSpan: 6 ticks, count: 3)
    /// result:   -----a-----b----(c|)     a = [1, 2, 3], b = [4], c = []
    /// ```
    ///
    /// - parameter timeSpan: The longest time an array collects elements.
    /// - parameter count: The most elements an array holds (0 or less: no limit, as in RxSwift).
    /// - parameter scheduler: The scheduler that runs the timers.
    /// - returns: The sequence of arrays.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        PlainProducer(asObservable(), BufferTimeCount(timeSpan: timeSpan, count: count, scheduler: scheduler))
    }
}

/// `buffer(timeSpan:count:scheduler:)`'s parameters.
struct BufferTimeCount<SourceElement>: PlainOperator {
    typealias Element = [SourceElement]

    let timeSpan: RxTimeInterval
    let count: Int
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        let sink = BufferTimeCountSink(self, observer: observer, state: BufferTimeCountState())
        sink.startTimer(windowID: 0)
        return sink.observe(source)
    }
}

/// The state of a `buffer(timeSpan:count:scheduler:)` subscription: the array being
/// filled and the timer of the window it belongs to. A window's number is its timer's
/// generation: a timer only closes the window it was started for.
struct BufferTimeCountState<Element>: TimedState {
    var buffer: [Element] = []
    var timer = TimerSlot()
}

final class BufferTimeCountSink<Element, Observer: ObserverType>: TimedSink<BufferTimeCount<Element>, Observer, BufferTimeCountState<Element>>, ObserverType, @unchecked Sendable where Observer.Element == [Element] {
    func on(_ event: Event<Element>) {
        let limit = parameters.count
        let newWindow: UInt64? = update { state in
            switch event {
            case .next(let element):
                if state.isTerminated { return nil }
                state.value.buffer.append(element)
                guard state.value.buffer.count == limit else { return nil }
                return Self.closeWindow(&state)
            case .error(let error):
                state.value.buffer = []
                state.send(.error(error))
            case .completed:
                state.send(.next(state.value.buffer))
                state.value.buffer = []
                state.send(.completed)
            }
            return nil
        }
        if let newWindow { startTimer(windowID: newWindow) }
    }

    /// Sends the current array and starts the next window; returns its number.
    private static func closeWindow(_ state: inout SerializedState<BufferTimeCountState<Element>, [Element]>) -> UInt64 {
        state.send(.next(state.value.buffer))
        state.value.buffer = []
        return state.value.timer.advance()
    }

    func startTimer(windowID: UInt64) {
        startTimer(windowID, after: parameters.timeSpan, on: parameters.scheduler) { self.timerFired($0) }
    }

    private func timerFired(_ firedWindowID: UInt64) {
        let newWindow: UInt64? = update { state in
            if firedWindowID != state.value.timer.generation || state.isTerminated { return nil }
            return Self.closeWindow(&state)
        }
        if let newWindow { startTimer(windowID: newWindow) }
    }
}
