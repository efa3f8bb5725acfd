import RxSwift

/// The failure text for two differing recordings: the first difference, both drawn as
/// aligned marble timelines with a caret under the first differing event, then both
/// event lists.
///
/// ```
/// Recorded events differ at index 1: expected next(2) @ 220, got next(3) @ 230
/// expected: ---------------------12-------|
/// actual:   ---------------------1-3------|
///                                 ^ first difference (time 220)
/// one column = 10 ticks, first column = time 0
/// expected events (3): [next(1) @ 210, next(2) @ 220, completed @ 300]
/// actual events (3):   [next(1) @ 210, next(3) @ 230, completed @ 300]
/// ```
///
/// Elements that are not single characters get letters, explained on a `legend:` line.
/// The first column is time 0, or the first event's time when that would leave more than
/// 30 empty columns before it.
///
/// When `expected` was parsed from marbles (``Marbles/parse(_:values:errors:frame:resolution:origin:)``,
/// ``Marbles/parseEventsAndTimes(timeline:values:errors:)``, the marble assertions), both
/// timelines are drawn with the keys the test wrote, on the frame and from the `^` it
/// wrote: the expected line reads as the test's own marbles.
public func recordedEventsMismatchMessage<T: Equatable>(_ actual: [Recorded<Event<T>>], _ expected: [Recorded<Event<T>>]) -> String {
    recordedEventsMismatchMessage(actual, expected, keys: nil)
}

/// ``recordedEventsMismatchMessage(_:_:)`` for an expectation written as marbles whose
/// keys are `keys`, which draw the timelines even when the text had no event.
package func recordedEventsMismatchMessage<T: Equatable>(_ actual: [Recorded<Event<T>>], _ expected: [Recorded<Event<T>>], keys: MarbleKeyBook?) -> String {
    guard let index = firstDifferenceIndex(actual, expected) else {
        return "Recorded events are equal: \(describeRecordedEvents(actual))"
    }
    let actualAt = index < actual.count ? "\(actual[index])" : "nothing"
    let expectedAt = index < expected.count ? "\(expected[index])" : "nothing"
    let differenceTime = [
        index < actual.count ? actual[index].time : nil,
        index < expected.count ? expected[index].time : nil,
    ].compactMap { $0 }.min()!

    let diagram = Marbles.failureDiagram(expected: expected, actual: actual, keys: keys)
    let expectedLabel = "expected: "
    let actualLabel = "actual:   "
    var lines = [
        "Recorded events differ at index \(index): expected \(expectedAt), got \(actualAt)",
        expectedLabel + diagram.lines[0],
        actualLabel + diagram.lines[1],
    ]
    if let column = diagram.column(of: differenceTime) {
        lines.append(String(repeating: " ", count: expectedLabel.count + column) + "^ first difference (time \(differenceTime))")
    }
    var scale = "one column = \(diagram.frame) tick\(diagram.frame == 1 ? "" : "s"), "
    if diagram.marksZero {
        scale += "'^' = time \(diagram.origin)"
    } else {
        scale += "first column = time \(diagram.origin)"
    }
    lines.append(scale)
    if !diagram.legend.isEmpty {
        lines.append("legend: " + diagram.legend.joined(separator: ", "))
    }
    lines.append("expected events (\(expected.count)): \(describeRecordedEvents(expected))")
    lines.append("actual events (\(actual.count)):   \(describeRecordedEvents(actual))")
    return lines.joined(separator: "\n")
}

/// The failure text for two differing subscription lists, both drawn as subscription
/// marbles on shared columns.
public func subscriptionsMismatchMessage(_ actual: [Subscription], _ expected: [Subscription]) -> String {
    let all = expected + actual
    var times = all.map(\.subscribe)
    times += all.map(\.unsubscribe).filter { $0 != Int.max }
    var origin = 0
    if let earliest = all.map(\.subscribe).min(), earliest > 0 {
        let frame = times.reduce(0, Marbles.gcd)
        if earliest / frame > 30 {
            origin = earliest
        }
    }
    let diagram = Marbles.renderSubscriptions(all, origin: origin)
    var lines = ["Subscriptions differ: expected \(expected), got \(actual)"]
    for (index, line) in diagram.lines.enumerated() {
        lines.append((index < expected.count ? "expected: " : "actual:   ") + line)
    }
    lines.append("one column = \(diagram.frame) tick\(diagram.frame == 1 ? "" : "s"), first column = time \(diagram.origin)")
    return lines.joined(separator: "\n")
}

extension Marbles {
    /// The expected and the actual timeline of a failure, aligned: in the terms of the
    /// marbles the expectation was parsed from when it was (`keys`, or the keys its events
    /// carry), otherwise with keys of the renderer's own from the `failureOrigin`.
    package static func failureDiagram<T>(expected: [Recorded<Event<T>>], actual: [Recorded<Event<T>>], keys: MarbleKeyBook?) -> MarbleDiagram<T> {
        var books: [MarbleKeyBook] = keys.map { [$0] } ?? []
        for recorded in expected + actual {
            guard let book = recorded.marbleKey?.book, !books.contains(where: { $0 === book }) else { continue }
            books.append(book)
        }
        guard !books.isEmpty else {
            return render(timelines: [expected, actual], origin: failureOrigin(of: (expected + actual).map(\.time)))
        }
        // The text's layout, when the expectation is one text and drawing from where the
        // text starts leaves no more than 100 empty columns before the first event (a
        // time progression, or events far from the text, would make a line of dashes).
        let times = (expected + actual).map(\.time)
        var layout = keys?.layout ?? expected.first?.marbleKey.flatMap { first in
            expected.allSatisfy { $0.marbleKey?.book === first.book } ? first.book.layout : nil
        }
        if let text = layout, let earliest = times.min() {
            let start = min(text.start, text.zero)
            let step = max(1, times.reduce(gcd(text.frame, text.zero - start)) { gcd($0, $1 - text.zero) })
            if (earliest - start) / step > 100 { layout = nil }
        }
        let origin = layout?.zero ?? failureOrigin(of: times)
        return render(timelines: [expected, actual], keysFrom: books, layout: layout, origin: origin)
    }

    /// The first column of a timeline drawn in a failure message: time 0, unless that
    /// puts more than 30 empty columns before the earliest of `times`.
    package static func failureOrigin(of times: [TestTime]) -> TestTime {
        guard let earliest = times.min(), earliest > 0 else { return 0 }
        let frame = times.reduce(0, Marbles.gcd)
        return earliest / frame > 30 ? earliest : 0
    }
}

/// Events as `[next(1) @ 210, completed @ 300]`.
package func describeRecordedEvents<T>(_ events: [Recorded<Event<T>>]) -> String {
    "[" + events.map { "\($0)" }.joined(separator: ", ") + "]"
}
