/// A typed observable sequence. Subjects, producers and every operator's result are
/// `Observable`s, as in RxSwift.
///
/// `Observable` is `Sendable`: a sequence is a description of work, and every
/// subscription is serialised by Rivulet itself.
public class Observable<Element>: ObservableType, @unchecked Sendable {
    package init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        rxAbstractMethod()
    }

    public func asObservable() -> Observable<Element> {
        self
    }

    /// Subscribes `observer` whose direct path is `direct`: the observer itself, of a
    /// class that accepts `Element` (a sink of this module, `subscribe`'s observer).
    /// The callers know that path already; an observable that would only look it up
    /// again (`map`, `filter`, `scan`, `just`) overrides this and skips the lookup,
    /// a class cast and a virtual call per subscription.
    @usableFromInline
    func subscribe<Observer: ObserverType>(_ observer: Observer, directPath direct: ObserverBase) -> Disposable where Observer.Element == Element {
        subscribe(observer)
    }

    /// Fusion (see OperatorKit/FastPath/SpecializedProducer.swift): whether a `map` or
    /// `filter` applied to this observable may run its step in this observable's sink.
    /// Only a `map` or `filter` not itself fused into its source says yes.
    var takesFusedStep: Bool { false }

    /// Fusion: subscribes one sink that runs this observable's step, then `tail`, the
    /// step of the `map` or `filter` applied to it; `downstream` takes elements by
    /// address. Called only where `takesFusedStep` said yes.
    func subscribeFused(_ downstream: ObserverBase, tail: OptionalAddressStep) -> Disposable {
        rxAbstractMethod()
    }
}

/// Base class of the observables Rivulet implements: subscribing creates a sink.
@usableFromInline
class Producer<Element>: Observable<Element>, @unchecked Sendable {
    override init() {
        super.init()
    }

    /// Subscribes through this thread's trampoline, as RxSwift does: synchronous
    /// sources nested inside a subscription start emitting once the outermost
    /// `subscribe` has wired every disposable, so `take(1)` can stop an endless one.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        CurrentThreadScheduler.unretainedState._withUnsafeGuaranteedRef { $0.run { run(observer) } }
    }

    func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        rxAbstractMethod()
    }
}

/// Another name for `Observable`, for code where `Observable` means something else (a
/// type of another framework, or a macro) and `RxSwift.Observable` reads poorly.
public typealias RxObservable<Element> = RxSwift.Observable<Element>
