import RxSwift
import RxTestCore

extension TestScheduler {
    /// Parses a timeline in the format of RxSwift's example tests: one tick per
    /// character from 0, `-` a tick, keys of any length (`e1`, `u2`) at the tick of
    /// their first character, `|` completes and starts the next timeline (for `retry`
    /// tests), `#` fails. See `Marbles.parseEventsAndTimes(timeline:values:errors:)`.
    ///
    /// ```swift
    /// let emailEvents = scheduler.parseEventsAndTimes(timeline: "---e1----e2-----", values: emails).first!
    /// let emailText = scheduler.createHotObservable(emailEvents)
    /// ```
    ///
    /// A timeline it cannot read (a key in neither `values` nor `errors`, an event after
    /// an error) fails the running test at the caller's line with the ``MarbleError``
    /// text and returns one empty timeline, so `.first!` does not crash the suite.
    ///
    /// - Parameters:
    ///   - timeline: The timeline.
    ///   - values: The element of each key.
    ///   - errors: The error of each error key, and of `#`.
    ///   - fileID: The file a timeline it cannot read is reported in; the caller's by
    ///     default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line it is reported at; the caller's by default.
    ///   - column: The column it is reported at; the caller's by default.
    /// - Returns: One array of events per timeline.
    public func parseEventsAndTimes<T>(
        timeline: String,
        values: [String: T],
        errors: [String: Swift.Error] = [:],
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> [[Recorded<Event<T>>]] {
        do {
            return try Marbles.parseEventsAndTimes(timeline: timeline, values: values, errors: errors)
        } catch {
            reportFailure(
                "parseEventsAndTimes: \(error)",
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
            )
            return [[]]
        }
    }

    /// `parseEventsAndTimes(timeline:values:errors:)` with the timeline unlabeled, as
    /// RxSwift's unit-testing guide writes it.
    public func parseEventsAndTimes<T>(
        _ timeline: String,
        values: [String: T],
        errors: [String: Swift.Error] = [:],
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> [[Recorded<Event<T>>]] {
        parseEventsAndTimes(
            timeline: timeline, values: values, errors: errors,
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }
}
