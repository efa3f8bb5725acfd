import RxSwift

/// The observables a counter screen exposes to its presenter.
public struct EventProvider {
    /// A tap of the counter button.
    public let buttonTapped: Observable<Void>

    public init(buttonTapped: Observable<Void>) {
        self.buttonTapped = buttonTapped
    }
}

/// Counts the button taps.
public struct Presenter {
    /// The number of taps so far, once per tap.
    public let count: Observable<Int>

    public init(eventProvider: EventProvider) {
        count = eventProvider.buttonTapped.scan(0) { previousValue, _ in
            previousValue + 1
        }
    }
}
