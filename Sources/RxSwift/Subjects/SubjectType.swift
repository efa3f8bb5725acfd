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

/// A subject whose observers are a `FanOut`: elements go through `onNext`, terminal
/// events through `stop`.
protocol FanOutSubject: AnyObject {
    associatedtype Element
    func onNext(_ element: Element)
    /// Passes a terminal event to every observer, once: an error when `error` is set,
    /// else completion.
    func stop(error: Swift.Error?)
}

extension FanOutSubject {
    /// Sends `event` on: an element through `onNext`, a terminal event through `stop`.
    @inline(__always)
    func route(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            stop(error: error)
        case .completed:
            stop(error: nil)
        }
    }
}
