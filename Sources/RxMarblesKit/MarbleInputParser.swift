import RxSwift
import RxTestCore

/// Turns the user's `--input` text into a `MarbleInput` with RxTestCore's marble parser
/// (`Marbles.parseTimeline`: one character per frame, one tick per frame, a group is one
/// frame, `^` is the zero point). Each key is kept as a `String` element; the example
/// decides whether it can take it.
public enum MarbleInputParser {
    /// The parsed input; throws RxTestCore's `MarbleError` (which names the character and
    /// its position) for malformed text.
    public static func parse(_ text: String) throws(RxTestCore.MarbleError) -> MarbleInput {
        let timeline = try Marbles.parseTimeline(text)
        let events = timeline.entries.map { entry -> Recorded<Event<String>> in
            switch entry.kind {
            case .key(let key): return Recorded(time: entry.time, value: .next(String(key)))
            case .error: return Recorded(time: entry.time, value: .error(MarbleDefaultError(key: "#")))
            case .completed: return Recorded(time: entry.time, value: .completed)
            }
        }
        let frames = (timeline.entries.map(\.time).max() ?? -1) + 1
        var input = MarbleInput(events: events, frameCount: frames, text: text, positions: timeline.entries.map(\.position))
        input.framesBeforeZero = framesBeforeZero(text, timeline)
        input.marksZero = timeline.zeroPosition != nil
        return input
    }

    /// How many frames of `text` come before its `^`: the time of a `|` put where the
    /// `^` stands (0 without `^`; when the text before `^` cannot take a `|`, the
    /// earliest event's distance is used).
    static func framesBeforeZero(_ text: String, _ timeline: MarbleTimeline) -> Int {
        guard let zero = timeline.zeroPosition else { return 0 }
        let earliest = max(0, -(timeline.entries.map(\.time).min() ?? 0))
        let prefix = String(Array(text)[..<zero]) + "|"
        guard let probe = try? Marbles.parseTimeline(prefix), let end = probe.entries.last, end.kind == .completed else {
            return earliest
        }
        return max(earliest, end.time)
    }
}
