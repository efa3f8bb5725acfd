extension ObservableType {
    /// The elements of `self`, then, once it completed successfully, those of `second`.
    ///
    /// ```
    /// self:   --1--2--|
    /// second:         --3--|  (subscribed when self completes)
    /// result: --1--2----3--|
    /// ```
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
        where Source.Element == Element {
        SourcesProducer(Concat(sources: [asObservable(), second.asObservable()], count: 2))
    }

    /// Concatenates the sequences of `sequence`: each is subscribed once the previous one
    /// completed successfully. `sequence` is iterated lazily, one sequence at a time.
    ///
    /// Chains of subscriptions do not grow the stack: a sequence that completes during its
    /// own subscription hands over to a loop, and a concatenation met inside another one
    /// (`[a, [b, [c, ...].concat()].concat()].concat()`) is flattened into it.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
        where Sequence.Element == Observable<Element> {
        SourcesProducer(Concat(sources: sequence, count: nil))
    }

    /// Concatenates the sequences of `collection`: each is subscribed once the previous
    /// one completed successfully.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element>
        where Collection.Element == Observable<Element> {
        SourcesProducer(Concat(sources: collection, count: collection.count))
    }

    /// Concatenates `sources`: each is subscribed once the previous one completed successfully.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        SourcesProducer(Concat(sources: sources, count: sources.count))
    }
}

/// `concat`'s sequences, iterated afresh for each subscription.
struct Concat<Element>: SourcesOperator {
    private let makeIterator: () -> AnyIterator<Observable<Element>>
    /// How many sequences the iterator yields, when known: an exhausted iterator is then
    /// dropped as soon as its last sequence starts (a flattened tail keeps no history).
    private let count: Int?

    init<Sources: Sequence>(sources: Sources, count: Int?) where Sources.Element == Observable<Element> {
        makeIterator = { AnyIterator(sources.makeIterator()) }
        self.count = count
    }

    /// A fresh iteration, for a subscription or for flattening into an enclosing concat.
    var iteration: ConcatIteration<Element> {
        ConcatIteration(iterator: makeIterator(), remaining: count)
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = ConcatSink(self, observer: observer)
        sink.setUpstream(sink.current)
        sink.scheduleMoveNext()
        return sink
    }
}

/// Lets one thread at a time run `concat`'s move loop, which subscribes the next
/// sequences one after another: a move asked for while the loop runs (a sequence that
/// completed meanwhile, on another thread) makes the running thread go round again.
struct MoveLoop {
    private var moving = false
    private var moveRequested = false

    /// Whether the caller runs the loop: `false` when it already runs, and will go round
    /// again.
    mutating func enter() -> Bool {
        if moving {
            moveRequested = true
            return false
        }
        moving = true
        return true
    }

    /// Whether the running loop goes round again (a move was asked for meanwhile);
    /// otherwise the loop has ended.
    mutating func goesRoundAgain() -> Bool {
        if moveRequested {
            moveRequested = false
            return true
        }
        moving = false
        return false
    }
}

struct ConcatIteration<Element> {
    var iterator: AnyIterator<Observable<Element>>
    var remaining: Int?
}

/// Moves through its sequences in turn (`SubscribesSourcesInTurn`): the first
/// subscription waits until the outermost `subscribe` has wired every disposable, so
/// `take(n)` can stop an endless concatenation.
final class ConcatSink<Observer: ObserverType>: PlainSink<Concat<Observer.Element>, Observer>, ObserverType, SubscribesSourcesInTurn, @unchecked Sendable {
    private let mover = LockedState(MoveLoop())
    /// Iterations, innermost last. Only the moving thread touches it.
    private var iterations: [ConcatIteration<Element>]
    let current = SerialDisposable()

    override init(_ parameters: Concat<Element>, observer: Observer) {
        iterations = [parameters.iteration]
        super.init(parameters, observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardEvent(event)
        case .error:
            forwardEvent(event)
        case .completed:
            scheduleMoveNext()
        }
    }

    /// Subscribes the next sequence; a completion on another thread while this one is
    /// subscribing makes this loop go round again.
    func moveNext() {
        guard mover.withLock({ $0.enter() }) else { return }
        while true {
            if isDisposed { return }
            guard let source = nextSource() else {
                forwardCompleted()
                return
            }
            let subscription = SingleAssignmentDisposable()
            current.disposable = subscription
            subscription.setDisposable(source.subscribe(self))
            if !mover.withLock({ $0.goesRoundAgain() }) { return }
        }
    }

    /// The next sequence to subscribe, flattening nested concatenations.
    private func nextSource() -> Observable<Element>? {
        while var top = iterations.popLast() {
            guard let candidate = top.iterator.next() else { continue }
            if let remaining = top.remaining {
                if remaining - 1 >= 1 {
                    top.remaining = remaining - 1
                    iterations.append(top)
                }
            } else {
                iterations.append(top)
            }
            if let nested = candidate as? SourcesProducer<Concat<Element>> {
                iterations.append(nested.sourcesOperator.iteration)
                let depth = iterations.count
                concatDepthRecord.withLock { $0 = max($0, depth) }
                continue
            }
            return candidate
        }
        return nil
    }
}

/// The deepest nesting of concatenations seen so far: the largest number of sequences of
/// sequences that one `concat` subscription has had open at once (a concatenation whose
/// sources are concatenations, and so on).
///
/// RxSwift keeps this figure in its debug builds to show that nested concatenations do
/// not grow the call stack; Rivulet keeps it in every build. Set it to 0 to measure anew.
public var maxTailRecursiveSinkStackSize: Int {
    get { concatDepthRecord.withLock { $0 } }
    set { concatDepthRecord.withLock { $0 = newValue } }
}

private let concatDepthRecord = LockedState(0)
