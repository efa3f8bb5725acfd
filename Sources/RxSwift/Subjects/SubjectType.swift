/// An observable that is also an observer: events sent to it reach its subscribers.
public protocol SubjectType: ObservableType {
    /// The observer side's type.
    associatedtype Observer: ObserverType
    /// The observer side of the subject.
    func asObserver() -> Observer
}

/// The disposable of one subscription to a subject: removes the observer again.
/// A value type, so subscribing allocates nothing for it.
struct SubjectSubscription<Owner: SubjectObserverRemoving>: Disposable {
    let owner: Owner
    let key: BagKey

    func dispose() {
        owner.removeObserver(key)
    }
}

protocol SubjectObserverRemoving: AnyObject {
    func removeObserver(_ key: BagKey)
}

/// An observer entry of a replaying subject: while the subject replays to a new
/// observer outside its lock, newer events wait in `pending`, so the observer sees
/// every event in order and no observer code runs under the subject's lock.
final class ReplayingObserver<Element>: @unchecked Sendable {
    private let lock = Lock.make()
    private let handler: (Event<Element>) -> Void
    private var pending: [Event<Element>]? = []
    private var stopped = false

    init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
    }

    func on(_ event: Event<Element>) {
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        if event.isStopEvent { stopped = true }
        if pending != nil {
            pending!.append(event)
            lock.unlock()
            return
        }
        lock.unlock()
        handler(event)
    }

    /// Delivers the replayed events, then everything that arrived meanwhile, then
    /// switches to direct delivery.
    func replay(_ events: [Event<Element>]) {
        for event in events {
            handler(event)
            if event.isStopEvent {
                lock.withLock {
                    stopped = true
                    pending = nil
                }
                return
            }
        }
        while true {
            lock.lock()
            guard let queued = pending, !queued.isEmpty else {
                pending = nil
                lock.unlock()
                return
            }
            pending = []
            lock.unlock()
            for event in queued {
                handler(event)
            }
        }
    }
}

/// An observer as a subject stores it: its event handler and, for Rivulet's own
/// observers, its direct element path.
struct SubjectObserverEntry<Element> {
    let on: (Event<Element>) -> Void
    /// The observer's direct path, if it has one: the observer itself, which `on`
    /// holds strongly, so it is kept unretained and a delivery costs no reference count.
    let next: Unmanaged<DirectObserver>?
    /// Whether `next` takes elements by address (see `DirectObserver`).
    let byAddress: Bool

    init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        on = observer.on
        let direct = directPath(of: observer)
        next = direct.map { Unmanaged.passUnretained($0) }
        byAddress = direct?.takesElementAddresses ?? false
    }
}

extension ContiguousArray {
    /// Delivers `event` to every entry, switching on the event once.
    ///
    /// The entries are walked through a buffer pointer by index: a `for` loop over this
    /// generic array would look up `Optional<Entry>` metadata at every step.
    @inline(__always)
    func deliver<Value>(_ event: Event<Value>) where Element == SubjectObserverEntry<Value> {
        if case .next(let element) = event {
            deliverNext(element)
        } else {
            withUnsafeBufferPointer { entries in
                var index = 0
                while index < entries.count {
                    entries[index].on(event)
                    index += 1
                }
            }
        }
    }

    /// Delivers one element to every entry, through its direct path when it has one.
    @inline(__always)
    func deliverNext<Value>(_ element: Value) where Element == SubjectObserverEntry<Value> {
        withUnsafePointer(to: element) { address in
            deliverNext(element, at: UnsafeRawPointer(address))
        }
    }

    /// Delivers one element, also found at `address`, to every entry: by address to
    /// those that take it so, through the direct path or as an event to the others.
    @inline(__always)
    private func deliverNext<Value>(_ element: Value, at address: UnsafeRawPointer) where Element == SubjectObserverEntry<Value> {
        withUnsafeBufferPointer { entries in
            var index = 0
            while index < entries.count {
                if let next = entries[index].next {
                    if entries[index].byAddress {
                        next._withUnsafeGuaranteedRef { $0.receive(at: address) }
                    } else {
                        next._withUnsafeGuaranteedRef { $0.receiveNext(element) }
                    }
                } else {
                    entries[index].on(.next(element))
                }
                index += 1
            }
        }
    }
}
