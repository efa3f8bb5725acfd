extension ObservableType {
    /// Calls the given actions for the events and the subscription's life cycle, and
    /// passes every event on unchanged.
    ///
    /// For each event: the `on...` action, then the event goes downstream, then the
    /// `after...` action. `onSubscribe` runs before subscribing to the source,
    /// `onSubscribed` right after, and `onDispose` once the source subscription is
    /// disposed, whether by a terminal event or by the subscriber.
    ///
    /// An error thrown by `onNext`, `onError`, `onCompleted` or `afterNext` ends the
    /// sequence with that error (instead of the event, for the `on...` actions). One
    /// thrown by `afterError` or `afterCompleted` comes after the terminal event has
    /// gone downstream, so it goes to `Hooks.defaultErrorHandler`.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        PlainProducer(asObservable(), Do(
            handlers: DoHandlers(
                onNext: onNext, afterNext: afterNext,
                onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted
            ),
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }
}

/// The per-event actions of `do`.
struct DoHandlers<Element> {
    let onNext: ((Element) throws -> Void)?
    let afterNext: ((Element) throws -> Void)?
    let onError: ((Swift.Error) throws -> Void)?
    let afterError: ((Swift.Error) throws -> Void)?
    let onCompleted: (() throws -> Void)?
    let afterCompleted: (() throws -> Void)?
}

/// `do`'s actions and sink.
struct Do<Element>: PlainOperator {
    let handlers: DoHandlers<Element>
    let onSubscribe: (() -> Void)?
    let onSubscribed: (() -> Void)?
    let onDispose: (() -> Void)?

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        onSubscribe?()
        let sink = DoSink(self, observer: observer)
        let subscription = source.subscribe(sink)
        onSubscribed?()
        if let onDispose {
            // `onDispose` runs after the source subscription is disposed, also when a
            // synchronous terminal event disposed the sink before this point.
            sink.setUpstream(Disposables.create {
                subscription.dispose()
                onDispose()
            })
        } else {
            sink.setUpstream(subscription)
        }
        return sink
    }
}

final class DoSink<Observer: ObserverType>: PlainSink<Do<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                try parameters.handlers.onNext?(element)
            } catch {
                forwardError(error)
                return
            }
            forwardEvent(event)
            do {
                try parameters.handlers.afterNext?(element)
            } catch {
                forwardError(error)
            }
        case .error(let error):
            do {
                try parameters.handlers.onError?(error)
            } catch let handlerError {
                forwardError(handlerError)
                return
            }
            finish(event) { try self.parameters.handlers.afterError?(error) }
        case .completed:
            do {
                try parameters.handlers.onCompleted?()
            } catch {
                forwardError(error)
                return
            }
            finish(event) { try self.parameters.handlers.afterCompleted?() }
        }
    }

    /// Sends the terminal event, runs the `after...` action, then disposes.
    private func finish(_ event: Event<Element>, after: () throws -> Void) {
        guard markStopped() else { return }
        deliverStop(event.error)
        do {
            try after()
        } catch {
            // The terminal event already went downstream; the grammar allows no other.
            Hooks.callDefaultErrorHandler([], error)
        }
        dispose()
    }
}
