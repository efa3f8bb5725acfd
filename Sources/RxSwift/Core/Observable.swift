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
