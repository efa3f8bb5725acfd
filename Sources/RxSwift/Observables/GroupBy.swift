extension ObservableType {
    /// Groups the elements by the key `keySelector` gives them: emits one
    /// `GroupedObservable` per new key, which then carries every element with that key.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// groupBy { $0 % 2 }
    /// result: --a--b--------|
    ///   a:      1-----3-----|    (key 1)
    ///   b:         2-----4--|    (key 0)
    /// ```
    ///
    /// Groups outlive the outer subscription: the source stays subscribed while the
    /// outer subscription or any group subscription lasts. A group subscribed to late
    /// sees only later elements (and the terminal event, even after the source ended).
    ///
    /// - parameter keySelector: The key of an element; a thrown error ends the outer
    ///   sequence and every group with it.
    /// - returns: The sequence of groups.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        PlainProducer(asObservable(), GroupBy(keySelector: keySelector))
    }
}

/// The elements of one group of `groupBy`, with their common key.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key shared by every element of the group.
    public let key: Key

    private let source: Observable<Element>

    /// A group with `key` whose elements come from `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Element == Observer.Element {
        source.subscribe(observer)
    }

    /// The group's elements as an `Observable`.
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension GroupedObservable: Sendable where Key: Sendable {}

/// `groupBy`'s parameter.
struct GroupBy<Key: Hashable, SourceElement>: PlainOperator {
    typealias Element = GroupedObservable<Key, SourceElement>

    let keySelector: (SourceElement) throws -> Key

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        let sink = GroupBySink<Key, SourceElement, Observer>(self, observer: observer)
        sink.run(source)
        return sink
    }
}

/// The observable of one group: every subscription keeps the source subscription alive
/// (a reference of the `RefCountDisposable`) until it is disposed.
///
/// `package` rather than internal: Swift 6.3 warns of an infinite recursion (a false
/// positive) for an internal class whose designated initializer calls `Observable`'s
/// `package init()`.
package final class GroupedObservableImpl<Element>: Observable<Element>, @unchecked Sendable {
    private let subject: PublishSubject<Element>
    private let refCount: RefCountDisposable

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override package convenience init() { rxUnusedInitializer() }

    init(subject: PublishSubject<Element>, refCount: RefCountDisposable) {
        self.subject = subject
        self.refCount = refCount
        super.init()
    }

    override package func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let release = refCount.retain()
        let subscription = subject.subscribe(observer)
        return Disposables.create(release, subscription)
    }
}

/// Events arrive serialised by the source, so the group table needs no lock; the
/// outer observer and the groups' subjects are called with no lock held.
final class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: PlainSink<GroupBy<Key, Element>, Observer>, ObserverType, @unchecked Sendable
where Observer.Element == GroupedObservable<Key, Element> {
    private let sourceSubscription = SingleAssignmentDisposable()
    private let refCount: RefCountDisposable
    private var groups: [Key: PublishSubject<Element>] = [:]
    /// The groups' subjects in creation order, for terminal events.
    private var groupOrder: [PublishSubject<Element>] = []

    override init(_ parameters: GroupBy<Key, Element>, observer: Observer) {
        refCount = RefCountDisposable(disposable: sourceSubscription)
        super.init(parameters, observer: observer)
    }

    func run(_ source: Observable<Element>) {
        // Disposing the outer subscription releases the primary reference only: the
        // source subscription lasts while a group subscription does.
        setUpstream(refCount)
        sourceSubscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try parameters.keySelector(element)
            } catch {
                finish(.error(error))
                return
            }
            if let group = groups[key] {
                group.on(.next(element))
                return
            }
            let subject = PublishSubject<Element>()
            groups[key] = subject
            groupOrder.append(subject)
            let group = GroupedObservable(key: key, source: GroupedObservableImpl(subject: subject, refCount: refCount))
            forwardNext(group)
            subject.on(.next(element))
        case .error, .completed:
            finish(event)
        }
    }

    private func finish(_ event: Event<Element>) {
        let subjects = groupOrder
        groupOrder = []
        groups = [:]
        for subject in subjects {
            subject.on(event)
        }
        switch event {
        case .error(let error): forwardError(error)
        case .next, .completed: forwardCompleted()
        }
        sourceSubscription.dispose()
    }
}
