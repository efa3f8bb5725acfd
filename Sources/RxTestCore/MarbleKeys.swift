import RxSwift

/// The key one event was written with in marbles, and the keys of the whole text.
///
/// Events parsed from marbles (``Marbles/parse(_:values:errors:frame:resolution:origin:)``,
/// ``Marbles/parseEventsAndTimes(timeline:values:errors:)`` and the scheduler's and
/// assertions' spellings of them) carry it, so that a failure comparing them draws
/// both timelines with the keys the test wrote rather than with letters of its own.
package struct MarbleKey: Sendable {
    /// The key as written: `a`, `e1`, `#`, `|`.
    package let key: String
    /// Every key of the text the event came from.
    package let book: MarbleKeyBook

    package init(key: String, book: MarbleKeyBook) {
        self.key = key
        self.book = book
    }
}

/// The `values` and `errors` a marble text was read with, and how the text was laid out.
///
/// It is immutable, and holds only elements of the element type of the events that carry
/// it: it is shared as those events are.
package final class MarbleKeyBook: @unchecked Sendable {
    /// Every key of `values` with its element, in key order.
    let values: [(key: String, element: Any)]
    /// Every key of `errors` with its error, in key order.
    let errors: [(key: String, error: Swift.Error)]
    /// How the text sits in virtual time, when the events came from one text.
    package let layout: MarbleLayout?

    package init<T>(values: [String: T], errors: [String: Swift.Error], layout: MarbleLayout?) {
        self.values = values.sorted { $0.key < $1.key }.map { (key: $0.key, element: $0.value as Any) }
        self.errors = errors.sorted { $0.key < $1.key }.map { (key: $0.key, error: $0.value) }
        self.layout = layout
    }

    /// The keys of `values` standing for `element`, in key order.
    func keys<T>(of element: T) -> [String] {
        values.compactMap { entry in
            guard let candidate = entry.element as? T, Marbles.sameValue(candidate, element) else { return nil }
            return entry.key
        }
    }

    /// The keys of `errors` standing for `error`, in key order.
    func keys(of error: Swift.Error) -> [String] {
        errors.compactMap { errorsAreEqual($0.error, error) ? $0.key : nil }
    }
}

/// Where a marble text sits in virtual time, to draw other events the way it was written.
package struct MarbleLayout: Sendable, Equatable {
    /// Ticks per frame.
    package let frame: TestTime
    /// The virtual time of the zero point (`^`, or else the first frame).
    package let zero: TestTime
    /// The virtual time of the text's first frame: before `zero` when frames come before
    /// its `^`.
    package let start: TestTime
    /// Whether the text marks its zero point with `^`.
    package let marksZero: Bool
    /// Whether keys take one tick per character, as in RxSwift's timelines (`e1` takes
    /// two), rather than one frame each.
    package let keysSpanTicks: Bool

    package init(frame: TestTime, zero: TestTime, start: TestTime, marksZero: Bool, keysSpanTicks: Bool) {
        self.frame = frame
        self.zero = zero
        self.start = start
        self.marksZero = marksZero
        self.keysSpanTicks = keysSpanTicks
    }

    /// RxSwift's timelines: one tick per character from 0.
    package static let rxSwiftTimeline = MarbleLayout(frame: 1, zero: 0, start: 0, marksZero: false, keysSpanTicks: true)
}
