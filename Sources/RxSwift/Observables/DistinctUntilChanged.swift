extension ObservableType where Element: Equatable {
    /// Passes on an element only when it differs from the previous one passed on.
    ///
    /// ```
    /// source: --1--1--2--2--1--|
    /// distinctUntilChanged()
    /// result: --1-----2-----1--|
    /// ```
    public func distinctUntilChanged() -> Observable<Element> {
        PlainProducer(asObservable(), DistinctUntilChanged(keySelector: { $0 }, comparer: isEqual))
    }
}

extension ObservableType {
    /// Passes on an element only when its key differs from the key of the previous one
    /// passed on; a thrown error ends the sequence with it.
    ///
    /// - parameter keySelector: Computes the key each element is compared by.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        PlainProducer(asObservable(), DistinctUntilChanged(keySelector: keySelector, comparer: isEqual))
    }

    /// Passes on an element only when `comparer` says it differs from the previous one
    /// passed on; a thrown error ends the sequence with it.
    ///
    /// - parameter comparer: Returns `true` when two elements count as equal.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        PlainProducer(asObservable(), DistinctUntilChanged(keySelector: { $0 }, comparer: comparer))
    }

    /// Passes on an element only when `comparer` says its key differs from the key of
    /// the previous one passed on; a thrown error ends the sequence with it.
    ///
    /// - parameter keySelector: Computes the key each element is compared by.
    /// - parameter comparer: Returns `true` when two keys count as equal.
    public func distinctUntilChanged<K>(
        _ keySelector: @escaping (Element) throws -> K,
        comparer: @escaping (K, K) throws -> Bool
    ) -> Observable<Element> {
        PlainProducer(asObservable(), DistinctUntilChanged(keySelector: keySelector, comparer: comparer))
    }

    /// Passes on an element only when its value at `keyPath` differs from that of the
    /// previous one passed on.
    ///
    /// ```
    /// source: --(a,1)--(b,1)--(c,2)--|
    /// distinctUntilChanged(at: \.1)
    /// result: --(a,1)---------(c,2)--|
    /// ```
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        PlainProducer(asObservable(), DistinctUntilChanged(keySelector: { $0[keyPath: keyPath] }, comparer: isEqual))
    }
}

/// `==` as a function value of one type, for the comparer of `distinctUntilChanged`: a
/// bare `==` argument would make the type checker try every `==` overload there.
func isEqual<Value: Equatable>(_ a: Value, _ b: Value) -> Bool {
    a == b
}

/// `distinctUntilChanged`'s closures and sink.
struct DistinctUntilChanged<Element, Key>: PlainOperator {
    let keySelector: (Element) throws -> Key
    let comparer: (Key, Key) throws -> Bool

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        DistinctUntilChangedSink(self, observer: observer).observe(source)
    }
}

final class DistinctUntilChangedSink<Observer: ObserverType, Key>: PlainSink<DistinctUntilChanged<Observer.Element, Key>, Observer>, ObserverType, @unchecked Sendable {
    // Touched only from `on`, which the Rx grammar serialises; `nil` until the first
    // element (a key that is itself optional nests inside).
    private var currentKey: Key?

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                let key = try parameters.keySelector(element)
                if let currentKey, try parameters.comparer(currentKey, key) {
                    return
                }
                currentKey = key
            } catch {
                forwardError(error)
                return
            }
            forwardEvent(event)
        case .error, .completed:
            forwardEvent(event)
        }
    }
}
