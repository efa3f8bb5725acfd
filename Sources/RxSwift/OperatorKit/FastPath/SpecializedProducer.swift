/// The observable of an operator that opts into the fast path (`map`, `filter`,
/// `scan`): its inlinable function builds, where the element types are known, the
/// closure that makes and subscribes its `SpecializedSink`, so the sink's type comes
/// from the caller's cache.
///
/// Fusion is decided here. A `map` or `filter` (an operator with an `elementStep`)
/// applied to another, unfused, one fuses into it: subscribed with a downstream that
/// takes addresses, it has its source make one `StepSink` for both (through
/// `Observable.subscribeFused`). Runs fuse in pairs.
///
/// Contract: `subscribeSink` is called with `self`, which it may `unsafeDowncast` to
/// the subclass whose operator built it (`Scan`), and with the step of a fused operator
/// applied to this one (`.none` when there is none).
@usableFromInline
class SpecializedProducer<Source, Element>: Producer<Element>, @unchecked Sendable {
    @usableFromInline final let source: Observable<Source>
    /// The step of `map` and `filter`; absent for other operators.
    @usableFromInline final let elementStep: OptionalAddressStep
    /// Whether this operator runs its step in its source's sink.
    private final let fusesIntoSource: Bool
    private final let subscribeSink: (SpecializedProducer, consuming ObserverBase, OptionalAddressStep) -> Disposable

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    @usableFromInline
    init(
        source: Observable<Source>,
        elementStep: OptionalAddressStep,
        subscribe: @escaping (SpecializedProducer, consuming ObserverBase, OptionalAddressStep) -> Disposable
    ) {
        self.source = source
        self.elementStep = elementStep
        self.fusesIntoSource = elementStep.isPresent && source.takesFusedStep
        self.subscribeSink = subscribe
    }

    /// Subscribes `sink` to the source; the sink is the subscription.
    @inlinable
    final func attach(_ sink: SpecializedSink<Source, Element>) -> Disposable {
        sink.setUpstream(source.subscribe(sink, directPath: sink))
        return sink
    }

    /// Subscribes without entering this thread's trampoline: the operator schedules
    /// nothing itself, and its source enters the trampoline when it needs it.
    override final func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscribe(direct: directPathOrAdapter(for: observer))
    }

    override final func subscribe<Observer: ObserverType>(_ observer: Observer, directPath direct: ObserverBase) -> Disposable where Observer.Element == Element {
        subscribe(direct: direct)
    }

    @inline(__always)
    private final func subscribe(direct: consuming ObserverBase) -> Disposable {
        if fusesIntoSource, direct.takesElementAddresses {
            return source.subscribeFused(direct, tail: elementStep)
        }
        return subscribeSink(self, direct, .none)
    }

    override final var takesFusedStep: Bool {
        elementStep.isPresent && !fusesIntoSource
    }

    override final func subscribeFused(_ downstream: ObserverBase, tail: OptionalAddressStep) -> Disposable {
        subscribeSink(self, downstream, tail)
    }
}
