/// What a sink reads from its operator value: the parameters, and the types of the
/// elements it receives (`SourceElement`) and sends (`Element`).
protocol OperatorParameters {
    associatedtype SourceElement
    associatedtype Element
}

/// What a plain operator adds to its source: the parameters it was given, and the sink
/// it puts between the source and each observer. `PlainProducer` does the rest.
///
/// A plain operator is then three pieces in its own file: the public function, which
/// returns `PlainProducer(source, SomeOperator(...))`; the struct conforming to this
/// protocol; and the operator's `Sink` subclass, which takes the events.
protocol PlainOperator: OperatorParameters {
    // Restated so that an operator's types are inferred from `subscribe`.
    associatedtype SourceElement
    associatedtype Element

    /// Subscribes `observer` to `source` through a new sink (see `observe(_:)`).
    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable
        where Observer.Element == Element
}

/// The Producer of every plain operator: the source, and the operator that makes a sink
/// for each subscription.
final class PlainProducer<Operator: PlainOperator>: Producer<Operator.Element>, @unchecked Sendable {
    private let source: Observable<Operator.SourceElement>
    private let plainOperator: Operator

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ source: Observable<Operator.SourceElement>, _ plainOperator: Operator) {
        self.source = source
        self.plainOperator = plainOperator
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        plainOperator.subscribe(observer, to: source)
    }
}

/// An operator that has no one source but subscribes sequences of its own (`amb`,
/// `concat`, `catch(sequence:)`, `refCount()`'s connectable): its value holds them
/// with the other parameters, and its sink observes sequences of its `Element`
/// (`SourceElement`).
protocol SourcesOperator: OperatorParameters where SourceElement == Element {
    /// Subscribes `observer` to the operator's sequences through a new sink.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
        where Observer.Element == Element
}

/// The Producer of every `SourcesOperator`: the operator, which makes a sink for each
/// subscription.
final class SourcesProducer<Operator: SourcesOperator>: Producer<Operator.Element>, @unchecked Sendable {
    /// The operator, read by a `concat` that flattens this one into itself.
    let sourcesOperator: Operator

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ sourcesOperator: Operator) {
        self.sourcesOperator = sourcesOperator
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        sourcesOperator.subscribe(observer)
    }
}

extension ObserverType where Self: SinkCore {
    /// Subscribes this sink to `source` and returns the sink, which is the subscription.
    func observe(_ source: Observable<Element>) -> Disposable {
        setUpstream(source.subscribe(self))
        return self
    }
}

/// The sink of a plain operator (or of a `SourcesOperator`) that reads its parameters
/// from the operator value rather than copying each into a property of its own. Only
/// per-subscription state is left to declare in the subclass.
class PlainSink<Operator: OperatorParameters, Observer: ObserverType>: Sink<Observer>, @unchecked Sendable
    where Observer.Element == Operator.Element {
    /// What the sink receives, as an observer of the source: its `Element` for
    /// `ObserverType`, so a subclass does not declare it.
    typealias Element = Operator.SourceElement

    /// The operator, whose parameters the sink reads.
    final let parameters: Operator

    /// Never called: fills the superclass's `init(observer:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: consuming Observer) { rxUnusedInitializer() }

    init(_ parameters: Operator, observer: Observer) {
        self.parameters = parameters
        super.init(observer: observer)
    }
}

/// The sink of a plain operator fed by several parties (a source and its timers, a
/// source and a trigger): a `SerializedSink` (SerializedSink.swift)
/// that, like `PlainSink`, reads its parameters from the operator value.
class PlainSerializedSink<Operator: OperatorParameters, Observer: ObserverType, State>: SerializedSink<Observer, State>, @unchecked Sendable
    where Observer.Element == Operator.Element {
    /// What the sink receives from the source (see `PlainSink.Element`).
    typealias Element = Operator.SourceElement

    /// The operator, whose parameters the sink reads.
    final let parameters: Operator

    /// Never called: fills the superclass's `init(observer:state:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: Observer, state: State) { rxUnusedInitializer() }

    init(_ parameters: Operator, observer: Observer, state: State) {
        self.parameters = parameters
        super.init(observer: observer, state: state)
    }
}

extension PlainSerializedSink where State == Void {
    /// A sink with no state of its own: it only serialises deliveries.
    convenience init(_ parameters: Operator, observer: Observer) {
        self.init(parameters, observer: observer, state: ())
    }
}
