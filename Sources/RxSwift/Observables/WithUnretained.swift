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
        WithUnretained(source: asObservable(), object: obj, resultSelector: resultSelector)
    }

    /// Pairs each element with `obj`, which the sequence holds only weakly; once `obj`
    /// is gone, the next element completes the sequence instead.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

final class WithUnretained<Object: AnyObject, Element, Out>: Producer<Out>, @unchecked Sendable {
    private let source: Observable<Element>
    private weak var object: Object?
    private let resultSelector: ((Object, Element)) -> Out

    init(source: Observable<Element>, object: Object, resultSelector: @escaping ((Object, Element)) -> Out) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Out {
        let sink = WithUnretainedSink<Object, Element, Observer>(
            object: object, resultSelector: resultSelector, observer: observer
        )
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class WithUnretainedSink<Object: AnyObject, Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Out = Observer.Element

    private weak var object: Object?
    private let resultSelector: ((Object, Element)) -> Out

    init(object: Object?, resultSelector: @escaping ((Object, Element)) -> Out, observer: Observer) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard let object else {
                forwardTerminal(.completed)
                return
            }
            forwardOn(.next(resultSelector((object, element))))
        case .error(let error):
            forwardTerminal(.error(error))
        case .completed:
            forwardTerminal(.completed)
        }
    }
}
