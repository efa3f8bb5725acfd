extension ObservableType {
    /// Mirrors whichever sequence of `sequence` reacts first (any event) and disposes the
    /// others at that moment. No sequences at all never emit.
    ///
    /// ```
    /// a:      ------1--2--|
    /// b:      ---3--4--|
    /// amb([a, b])
    /// result: ---3--4--|
    /// ```
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
        where Sequence.Element == Observable<Element> {
        SourcesProducer(Amb(sources: Array(sequence)))
    }

    /// Mirrors whichever of `self` and `right` reacts first (any event) and disposes the
    /// other at that moment.
    public func amb<Source: ObservableType>(_ right: Source) -> Observable<Element> where Source.Element == Element {
        SourcesProducer(Amb(sources: [asObservable(), right.asObservable()]))
    }
}

/// `amb`'s sequences.
struct Amb<Element>: SourcesOperator {
    let sources: [Observable<Element>]

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = AmbSink(self, observer: observer)
        for (index, source) in sources.enumerated() {
            sink.subscriptions[index].setDisposable(source.subscribe(AmbObserver(sink: sink, index: index)))
        }
        return sink
    }
}

final class AmbSink<Observer: ObserverType>: PlainSink<Amb<Observer.Element>, Observer>, @unchecked Sendable {
    /// The index of the source that reacted first; decided once.
    private let winner = LockedState<Int?>(nil)
    let subscriptions: [SingleAssignmentDisposable]

    override init(_ parameters: Amb<Observer.Element>, observer: Observer) {
        subscriptions = parameters.sources.map { _ in SingleAssignmentDisposable() }
        super.init(parameters, observer: observer)
    }

    /// Whether source `index` is the winner, deciding it when nobody won yet. The losers
    /// are disposed at the decision. Once a source won, only its own (serial) events are
    /// delivered, so deliveries need no further coordination.
    func claim(_ index: Int) -> Bool {
        let (wins, decidedNow) = winner.withLock { winner -> (Bool, Bool) in
            if let winner { return (winner == index, false) }
            winner = index
            return (true, true)
        }
        if decidedNow {
            for (other, subscription) in subscriptions.enumerated() where other != index {
                subscription.dispose()
            }
        }
        return wins
    }

    override func disposeCore() {
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}

final class AmbObserver<Observer: ObserverType>: EventObserver<Observer.Element>, @unchecked Sendable {
    private let sink: AmbSink<Observer>
    private let index: Int
    /// Whether this source won, once known. Only touched from `on`, which the source's
    /// own grammar serialises.
    private var isWinner: Bool?

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(sink: AmbSink<Observer>, index: Int) {
        self.sink = sink
        self.index = index
    }

    override func on(_ event: Event<Observer.Element>) {
        let wins: Bool
        if let isWinner {
            wins = isWinner
        } else {
            wins = sink.claim(index)
            isWinner = wins
        }
        guard wins else { return }
        sink.forwardEvent(event)
    }
}
