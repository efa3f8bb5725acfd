/// A sink that passes its source's events on unchanged, on the direct path when both
/// sides have one: the sink of `create`, `multicast`, `subscribe(on:)`, `startWith`
/// and the connectable observables, which emit through it rather than through a sink
/// of their own. Its `receiveNext` reads its `T` as the element type with
/// `unsafeSameTypeCast`: `acceptsElements` accepts that type only (see
/// Core/ObserverBase.swift), and debug builds check it (Core/UnsafeCasts.swift).
final class PassThroughSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        forwardEvent(event)
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Observer.Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        forwardNext(unsafeSameTypeCast(element, to: Observer.Element.self))
    }

    override func receiveCompleted() {
        forwardCompleted()
    }

    override func receiveError(_ error: Swift.Error) {
        forwardError(error)
    }
}
