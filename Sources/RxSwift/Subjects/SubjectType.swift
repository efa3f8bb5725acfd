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

/// An observer as a subject stores it. Not generic: walking a list of these looks up
/// no generic metadata, which a subject would otherwise pay on every element (and a
/// subject with one observer, as each of merge's sources, pays per delivery).
struct SubjectObserverEntry {
    /// Holds the observer: the observer itself when it has a direct path, otherwise a
    /// `SubjectEventHandler` around its `on`.
    let target: AnyObject
    /// The observer's direct path, if it has one: `target`, kept unretained here so a
    /// delivery costs no reference count.
    let next: Unmanaged<DirectObserver>?
    /// Whether `next` takes elements by address (see `DirectObserver`).
    let byAddress: Bool

    init<Observer: ObserverType>(_ observer: Observer) {
        if let direct = directPath(of: observer) {
            target = direct
            next = Unmanaged.passUnretained(direct)
            byAddress = direct.takesElementAddresses
        } else {
            target = SubjectEventHandler(observer.on)
            next = nil
            byAddress = false
        }
    }

    /// What a vacated slot of a subject's `Bag` holds: an entry whose observer ignores
    /// everything.
    static var vacancy: SubjectObserverEntry { SubjectObserverEntry(vacant: VacantObserver.shared) }

    private init(vacant: DirectObserver) {
        target = vacant
        next = Unmanaged.passUnretained(vacant)
        byAddress = true
    }

    /// Sends `event` to the observer; `Value` is the element type it was stored with.
    @inline(__always)
    func on<Value>(_ event: Event<Value>) {
        if let next {
            next._withUnsafeGuaranteedRef { observer in
                switch event {
                case .next(let element): observer.receiveNext(element)
                case .error(let error): observer.receiveError(error)
                case .completed: observer.receiveCompleted()
                }
            }
        } else {
            unsafeDowncast(target, to: SubjectEventHandler<Value>.self).on(event)
        }
    }
}

extension SubjectObserverEntry {
    /// Sends `element` to an observer without a direct path. Out of line: building
    /// the `Event` needs its generic metadata, which would otherwise be looked up on
    /// entry of every delivery, whoever its observers are.
    @inline(never)
    func sendNextAsEvent<Value>(_ element: Value) {
        unsafeDowncast(target, to: SubjectEventHandler<Value>.self).on(.next(element))
    }
}

/// The event handler of an observer that has no direct path.
final class SubjectEventHandler<Element> {
    let on: (Event<Element>) -> Void

    init(_ on: @escaping (Event<Element>) -> Void) {
        self.on = on
    }
}

extension ContiguousArray where Element == SubjectObserverEntry {
    /// Delivers `event` to every entry, switching on the event once.
    @inline(__always)
    func deliver<Value>(_ event: Event<Value>) {
        if case .next(let element) = event {
            deliverNext(element)
        } else {
            for entry in self {
                entry.on(event)
            }
        }
    }

    /// Delivers one element to every entry: by address to those that take it so,
    /// through the direct path or as an event to the others.
    @inline(__always)
    func deliverNext<Value>(_ element: Value) {
        withUnsafePointer(to: element) { address in
            // By index through a buffer: reading an entry's fields in place copies
            // nothing, where a `for` loop would retain and release each `target`.
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
                        entries[index].sendNextAsEvent(element)
                    }
                    index += 1
                }
            }
        }
    }
}
