extension ObservableType {
    /// Pairs each element with its index, counting from 0.
    ///
    /// ```
    /// source: --a------b------c------|
    /// enumerated()
    /// result: --(0,a)--(1,b)--(2,c)--|
    /// ```
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        PlainProducer(asObservable(), Enumerate())
    }
}

/// `enumerated()`: no parameters; each subscription gets an `EnumeratedSink`.
struct Enumerate<SourceElement>: PlainOperator {
    typealias Element = (index: Int, element: SourceElement)

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        EnumeratedSink(self, observer: observer).observe(source)
    }
}

/// `enumerated`'s sink: passes each element on with the count of those before it, and
/// ends with `RxError.overflow` when the count would pass `Int.max`.
final class EnumeratedSink<SourceElement, Observer: ObserverType>: PlainSink<Enumerate<SourceElement>, Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == (index: Int, element: SourceElement) {
    // Touched only from `on`, which the Rx grammar serialises.
    private var index = 0

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let current = index
            guard current < Int.max else { return forwardError(RxError.overflow) }
            index = current + 1
            forwardNext((index: current, element: element))
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
