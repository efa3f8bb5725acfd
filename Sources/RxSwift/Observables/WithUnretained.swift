extension ObservableType {
    /// Combines each element with `obj`, which the sequence holds only weakly; once
    /// `obj` is gone, the next element completes the sequence instead.
    ///
    /// ```
    /// source: --1--2------3--|
    /// withUnretained(owner) { ($0, $1) }       (owner released after 2)
    /// result: --(o,1)--(o,2)--|
    /// ```
    ///
    /// - parameter obj: The object to pass along with each element, held weakly.
    /// - parameter resultSelector: Combines the object and an element.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object,
        resultSelector: @escaping ((Object, Element)) -> Out
    ) -> Observable<Out> {
        PlainProducer(asObservable(), WithUnretained(object: obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj`, which the sequence holds only weakly; once `obj`
    /// is gone, the next element completes the sequence instead.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

/// `withUnretained`'s object (held weakly) and sink.
struct WithUnretained<Object: AnyObject, SourceElement, Element>: PlainOperator {
    weak var object: Object?
    let resultSelector: ((Object, SourceElement)) -> Element

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        WithUnretainedSink<Object, SourceElement, Observer>(self, observer: observer).observe(source)
    }
}

final class WithUnretainedSink<Object: AnyObject, Element, Observer: ObserverType>: PlainSink<WithUnretained<Object, Element, Observer.Element>, Observer>,
    ObserverType, @unchecked Sendable {

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard let object = parameters.object else {
                forwardCompleted()
                return
            }
            forwardNext(parameters.resultSelector((object, element)))
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
