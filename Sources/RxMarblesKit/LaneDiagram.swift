import Foundation
import RxLanes

/// A lanes recording laid out on one time axis, ready to draw as text or SVG.
///
/// Each subscription of each lane is a row (lanes in their order, a lane's subscriptions
/// in the order they appear), named after its lane, with `#2`, `#3`... for the
/// subscriptions after the first. Time runs in frames of ``frameDuration``, chosen from
/// a 1-2-5 ladder so that the drawing stays within ``columnBudget`` columns: entries in
/// one frame are drawn together, as a group; a stretch of more than ``gapThreshold``
/// frames in which nothing happens is left out and drawn as one gap column, whose
/// duration the time ruler shows.
///
/// A row shows its subscription's lifetime: nothing before the subscription, its entries,
/// and nothing after its end (completed, failed or disposed). A subscription whose
/// `subscribed` entry the ring dropped starts at the left edge with a mark of its own
/// (``Mark/startedEarlier``).
public struct LaneDiagram: Equatable, Sendable {
    /// The frame durations to choose from, in nanoseconds: 1, 2 and 5 times a power of
    /// ten, from 1 µs to 10 s.
    public static let frameDurations: [UInt64] = {
        var durations: [UInt64] = []
        var power: UInt64 = 1_000
        while power <= 1_000_000_000 {
            durations += [power, 2 * power, 5 * power]
            power *= 10
        }
        return durations + [10_000_000_000]
    }()

    /// The most columns a diagram aims at (frames and gaps).
    public static let columnBudget = 72

    /// A stretch of more empty frames than this is drawn as one gap column.
    public static let gapThreshold = 6

    /// A column of the drawing.
    public enum Column: Equatable, Sendable {
        /// One frame: `frame` frames after ``LaneDiagram/start``.
        case frame(Int)
        /// Empty frames left out: `count` of them, the first `from` frames after
        /// ``LaneDiagram/start``.
        case gap(from: Int, count: Int)

        /// Whether it is a gap.
        public var isGap: Bool {
            if case .gap = self { return true }
            return false
        }
    }

    /// What a row shows at a column where something happens.
    public enum Mark: Equatable, Sendable {
        /// The row's subscription began before the oldest entry kept: its `subscribed`
        /// entry was dropped by the lane's ring.
        case startedEarlier
        /// An entry of the recording.
        case entry(LaneRecording.Entry)

        /// The entry, if it is one.
        public var entry: LaneRecording.Entry? {
            if case .entry(let entry) = self { return entry }
            return nil
        }
    }

    /// What a row shows at one column.
    public enum Cell: Equatable, Sendable {
        /// Before its subscription: nothing.
        case before
        /// Subscribed, nothing happens.
        case line
        /// Subscribed across a gap.
        case gap
        /// Entries at this column, in the order recorded.
        case marks([Mark])
        /// After its end: nothing.
        case after

        /// The marks, if there are any.
        public var marks: [Mark] {
            if case .marks(let marks) = self { return marks }
            return []
        }
    }

    /// One subscription of one lane.
    public struct Row: Equatable, Sendable {
        /// The index of its lane in the recording.
        public var lane: Int
        /// Its subscription number, from 1.
        public var subscription: Int
        /// The name shown: the lane's, with `#N` after it from the second subscription on.
        public var name: String
        /// Whether it began before the oldest entry kept.
        public var startedEarlier: Bool
        /// One cell per column.
        public var cells: [Cell]
        /// The column where it begins (0 when it began earlier).
        public var firstColumn: Int
        /// The column of its end, `nil` while it was still subscribed when recorded.
        public var endColumn: Int?
        /// How it ended: completed, failed or disposed; `nil` while subscribed.
        public var end: LaneRecording.Kind?
    }

    /// A label of the time ruler, at a column.
    public struct RulerLabel: Equatable, Sendable {
        /// What it marks.
        public enum Kind: Equatable, Sendable {
            /// The time of the first column.
            case start
            /// The duration of a gap.
            case gap
            /// The time where the drawing resumes after a gap.
            case resume
            /// A regular tick.
            case tick
        }

        /// The column it stands under.
        public var column: Int
        /// What it marks.
        public var kind: Kind
        /// For a gap, its duration; otherwise the time since the recorder started, in
        /// nanoseconds.
        public var nanoseconds: UInt64
    }

    /// The recording drawn.
    public let recording: LaneRecording
    /// How long one frame is, in nanoseconds.
    public let frameDuration: UInt64
    /// The time of frame 0 (the first entry's frame), since the recorder started.
    public let start: UInt64
    /// The columns, left to right.
    public let columns: [Column]
    /// The rows, top to bottom.
    public let rows: [Row]
    /// How values are written.
    public let keys: LaneKeys
    /// The threads the entries arrived on, by index in ``LaneRecording/threads``.
    public let threadsUsed: [Int]

    /// The layout of `recording`.
    public init(_ recording: LaneRecording) {
        self.recording = recording
        // In time order (a recording read from a file or taken from a recorder already
        // is; one made by hand may not be), keeping the recorded order at equal times.
        let entries = recording.entries.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)

        // The rows: lanes in order, each lane's subscriptions in order of appearance.
        var subscriptionsOfLane: [Int: [Int]] = [:]
        var seen: Set<RowKey> = []
        for entry in entries where seen.insert(RowKey(lane: entry.lane, subscription: entry.subscription)).inserted {
            subscriptionsOfLane[entry.lane, default: []].append(entry.subscription)
        }
        var orderedKeys: [RowKey] = []
        var rowOfKey: [RowKey: Int] = [:]
        for lane in subscriptionsOfLane.keys.sorted() {
            for subscription in subscriptionsOfLane[lane] ?? [] {
                rowOfKey[RowKey(lane: lane, subscription: subscription)] = orderedKeys.count
                orderedKeys.append(RowKey(lane: lane, subscription: subscription))
            }
        }
        let rowOfEntry = entries.map { rowOfKey[RowKey(lane: $0.lane, subscription: $0.subscription)] ?? 0 }

        guard let first = entries.first, let last = entries.last else {
            frameDuration = Self.frameDurations[0]
            start = 0
            columns = []
            rows = []
            keys = LaneKeys(labels: [])
            threadsUsed = []
            return
        }

        let duration = Self.chooseFrameDuration(times: entries.map(\.time), rowOfEntry: rowOfEntry, span: last.time - first.time)
        frameDuration = duration
        start = first.time / duration * duration
        let frames = entries.map { Int(($0.time - first.time / duration * duration) / duration) }
        let (columns, columnOfFrame) = Self.columns(occupiedFrames: frames)
        self.columns = columns

        // Each row's marks, by column.
        var marksOfRow: [[Int: [Mark]]] = Array(repeating: [:], count: orderedKeys.count)
        var firstKindOfRow: [LaneRecording.Kind?] = Array(repeating: nil, count: orderedKeys.count)
        var endOfRow: [(column: Int, kind: LaneRecording.Kind)?] = Array(repeating: nil, count: orderedKeys.count)
        for (index, entry) in entries.enumerated() {
            let row = rowOfEntry[index]
            let column = columnOfFrame[frames[index]] ?? 0
            if firstKindOfRow[row] == nil { firstKindOfRow[row] = entry.kind }
            marksOfRow[row][column, default: []].append(.entry(entry))
            if entry.kind.endsSubscription, endOfRow[row] == nil {
                endOfRow[row] = (column, entry.kind)
            }
        }
        var rows: [Row] = []
        for (index, key) in orderedKeys.enumerated() {
            let startedEarlier = firstKindOfRow[index] != .subscribed
            var marks = marksOfRow[index]
            if startedEarlier {
                marks[0] = [.startedEarlier] + (marks[0] ?? [])
            }
            let firstColumn = marks.keys.min() ?? 0
            let end = endOfRow[index]
            let cells = (0..<columns.count).map { column -> Cell in
                if let here = marks[column] { return .marks(here) }
                if column < firstColumn { return .before }
                if let end, column > end.column { return .after }
                return columns[column].isGap ? .gap : .line
            }
            let laneName = key.lane < recording.lanes.count ? recording.lanes[key.lane].name : "lane \(key.lane)"
            rows.append(Row(
                lane: key.lane, subscription: key.subscription,
                name: key.subscription == 1 ? laneName : "\(laneName) #\(key.subscription)",
                startedEarlier: startedEarlier, cells: cells, firstColumn: firstColumn,
                endColumn: end?.column, end: end?.kind
            ))
        }
        self.rows = rows

        keys = LaneKeys(labels: rows.flatMap { row in
            row.cells.flatMap(\.marks).compactMap { mark -> String? in
                if case .next(let value) = mark.entry?.kind { return value }
                return nil
            }
        })
        threadsUsed = Set(entries.map(\.thread)).sorted()
    }

    /// A lane's subscription.
    private struct RowKey: Hashable {
        var lane: Int
        var subscription: Int
    }

    // MARK: - Time

    /// The frame duration that shows the recording best within ``columnBudget`` columns.
    ///
    /// Each duration of the ladder is scored by what it hides: entries of a row that fall
    /// into one frame though they were apart (more than a ten-thousandth of the whole
    /// span: entries closer than that count as simultaneous), and each gap left out.
    /// Of the durations with the lowest score, which typically run from the shortest,
    /// where one more gap would appear, to the longest, where entries would begin to
    /// stack, the middle one is taken (the longer of two middles).
    static func chooseFrameDuration(times: [UInt64], rowOfEntry: [Int], span: UInt64) -> UInt64 {
        let simultaneous = max(1, span / 10_000)
        var scored: [(duration: UInt64, score: Int)] = []
        for duration in frameDurations {
            let origin = (times.first ?? 0) / duration * duration
            let frames = times.map { Int(($0 - origin) / duration) }
            guard let (_, gaps) = countColumns(occupiedFrames: frames, limit: columnBudget) else { continue }
            var hidden = 0
            var lastOfRow: [Int: (frame: Int, time: UInt64)] = [:]
            for (index, frame) in frames.enumerated() {
                let row = rowOfEntry[index]
                if let previous = lastOfRow[row], previous.frame == frame, times[index] - previous.time >= simultaneous {
                    hidden += 1
                }
                lastOfRow[row] = (frame, times[index])
            }
            scored.append((duration, hidden + gaps))
        }
        // A recording too long for the budget even at the longest frame takes it.
        guard let lowest = scored.map(\.score).min() else { return frameDurations[frameDurations.count - 1] }
        let best = scored.filter { $0.score == lowest }.map(\.duration)
        return best[best.count / 2]
    }

    /// How many columns and gaps ``columns(occupiedFrames:)`` makes, or `nil` as soon as
    /// there are more columns than `limit`.
    static func countColumns(occupiedFrames: [Int], limit: Int) -> (columns: Int, gaps: Int)? {
        var count = 0
        var gaps = 0
        var previous: Int?
        for frame in occupiedFrames where frame != previous {
            if let previous {
                let empty = frame - previous - 1
                if empty > gapThreshold {
                    count += 1
                    gaps += 1
                } else {
                    count += empty
                }
            }
            count += 1
            if count > limit { return nil }
            previous = frame
        }
        return (count, gaps)
    }

    /// The columns for entries at `occupiedFrames` (in order, not decreasing): every
    /// frame from the first to the last, each empty stretch longer than
    /// ``gapThreshold`` frames made one gap; and the column of each occupied frame.
    static func columns(occupiedFrames: [Int]) -> (columns: [Column], columnOfFrame: [Int: Int]) {
        var columns: [Column] = []
        var columnOfFrame: [Int: Int] = [:]
        var previous: Int?
        for frame in occupiedFrames where frame != previous {
            if let previous {
                let empty = frame - previous - 1
                if empty > gapThreshold {
                    columns.append(.gap(from: previous + 1, count: empty))
                } else if empty > 0 {
                    columns += (previous + 1..<frame).map(Column.frame)
                }
            }
            columnOfFrame[frame] = columns.count
            columns.append(.frame(frame))
            previous = frame
        }
        return (columns, columnOfFrame)
    }

    /// The time at the start of column `column`, since the recorder started.
    public func time(ofColumn column: Int) -> UInt64 {
        switch columns[column] {
        case .frame(let frame): return start + UInt64(frame) * frameDuration
        case .gap(let from, _): return start + UInt64(from) * frameDuration
        }
    }

    /// The time from the first entry to the last, in nanoseconds.
    public var duration: UInt64 {
        let times = recording.entries.map(\.time)
        guard let first = times.min(), let last = times.max() else { return 0 }
        return last - first
    }

    /// Whether the entries arrived on more than one thread, so that each row's threads
    /// are shown.
    public var showsThreads: Bool {
        threadsUsed.count > 1
    }

    /// The labels of the time ruler, most important first: the start, each gap's
    /// duration, where the drawing resumes after a gap, then a tick every ten frames
    /// (at whole multiples of ten frame durations).
    public var rulerLabels: [RulerLabel] {
        guard !columns.isEmpty else { return [] }
        var labels = [RulerLabel(column: 0, kind: .start, nanoseconds: time(ofColumn: 0))]
        var resumes: [RulerLabel] = []
        var ticks: [RulerLabel] = []
        for (index, column) in columns.enumerated() {
            switch column {
            case .gap(_, let count):
                labels.append(RulerLabel(column: index, kind: .gap, nanoseconds: UInt64(count) * frameDuration))
                if index + 1 < columns.count {
                    resumes.append(RulerLabel(column: index + 1, kind: .resume, nanoseconds: time(ofColumn: index + 1)))
                }
            case .frame:
                let time = time(ofColumn: index)
                if index > 0, !columns[index - 1].isGap, time % (10 * frameDuration) == 0 {
                    ticks.append(RulerLabel(column: index, kind: .tick, nanoseconds: time))
                }
            }
        }
        return labels + resumes + ticks
    }

    // MARK: - Words

    /// The heading: lanes, subscriptions, events, the time they span and the frame
    /// duration; for a recording without entries, that it has none.
    public func heading(ascii: Bool = false) -> String {
        let entries = recording.entries
        guard let first = entries.min(by: { $0.time < $1.time }), let last = entries.max(by: { $0.time < $1.time }) else {
            let lanes = recording.lanes.map(\.name)
            return "No events recorded" + (lanes.isEmpty ? "." : " (lanes: " + lanes.joined(separator: ", ") + ").")
        }
        let lanes = Set(rows.map(\.lane)).count
        var text = Self.counted(lanes, "lane") + ", " + Self.counted(rows.count, "subscription") + ", "
        text += Self.counted(entries.count, "event")
        if first.time == last.time {
            text += " at " + Self.format(first.time, ascii: ascii)
        } else {
            text += " over " + Self.format(duration, ascii: ascii)
            text += " (" + Self.format(first.time, ascii: ascii) + " to " + Self.format(last.time, ascii: ascii) + ")"
        }
        text += "; one column = " + Self.format(frameDuration, ascii: ascii)
        let gaps = columns.filter(\.isGap).count
        if gaps > 0 {
            text += ", " + Self.counted(gaps, "idle stretch", plural: "idle stretches") + " left out"
        }
        return text
    }

    /// A line per lane whose ring dropped entries: `email: 120 older events dropped
    /// (the lane keeps 100)`.
    public var droppedNotes: [String] {
        recording.lanes.filter { $0.dropped > 0 }.map { lane in
            "\(lane.name): " + Self.counted(lane.dropped, "older event") + " dropped (the lane keeps \(lane.capacity))"
        }
    }

    /// The name of thread `index`, as the legend lists it.
    public func threadName(_ index: Int) -> String {
        index < recording.threads.count ? recording.threads[index] : "thread \(index + 1)"
    }

    /// The number a thread is shown with: its index plus one.
    public static func threadNumber(_ index: Int) -> String {
        String(index + 1)
    }

    /// The failures drawn, row by row: the row's name and the error's description.
    public var failures: [(row: String, description: String)] {
        rows.compactMap { row in
            if case .error(let description) = row.end { return (row.name, description) }
            return nil
        }
    }

    /// `count` and a noun, made plural unless it is one.
    static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }

    /// A duration in nanoseconds in the unit that suits it, with at most three
    /// significant digits: `0`, `850 ns`, `12.5 µs`, `250 ms`, `1.25 s`, `2 min 5 s`,
    /// `1 h 2 min`. With `ascii`, microseconds are `us`.
    public static func format(_ nanoseconds: UInt64, ascii: Bool = false) -> String {
        if nanoseconds == 0 { return "0" }
        if nanoseconds < 1_000 { return "\(nanoseconds) ns" }
        let units: [(size: Double, name: String)] = [(1e3, ascii ? "us" : "µs"), (1e6, "ms"), (1e9, "s")]
        let value = Double(nanoseconds)
        for (index, unit) in units.enumerated() {
            let limit = index + 1 < units.count ? units[index + 1].size : 60e9
            guard value < limit else { continue }
            let text = significant(value / unit.size)
            // 999.6 µs rounds to 1000 µs: say 1 ms instead.
            if text == "1000", index + 1 < units.count { return "1 " + units[index + 1].name }
            if text == "60", index + 1 == units.count { break }
            return text + " " + unit.name
        }
        let seconds = Int((value / 1e9).rounded())
        if seconds < 3_600 {
            return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s"
        }
        let minutes = Int((value / 60e9).rounded())
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// `value` (from 1 up to 1000) with three significant digits, trailing zeros dropped.
    private static func significant(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}

/// How the values of a lanes diagram are written: a value of one character that means
/// nothing else in the drawing stands for itself; every other value gets a key (a
/// letter, as ``MarbleKeys`` gives them) that the legend explains.
///
/// The drawing's own marks (`^ | # ! - ( )`, `<` for a subscription that began earlier,
/// `≈` and `~` for gaps) and `*` never stand for a value. When there are more distinct
/// values than keys, the rest are all written `*`, and the legend says how many.
public struct LaneKeys: Equatable, Sendable {
    /// A key and the value it stands for.
    public struct LegendEntry: Equatable, Sendable {
        /// The key drawn.
        public var key: String
        /// The value, in full.
        public var label: String
    }

    /// The key written for every value that got no key of its own.
    public static let overflowKey = "*"
    /// Characters with a meaning of their own in lanes diagrams, beside marble symbols.
    static let reserved: Set<String> = ["<", "≈", "~", "*"]

    /// The values that got a key, in the order of first appearance.
    public let legend: [LegendEntry]
    /// How many distinct values are written ``overflowKey``.
    public let overflowCount: Int
    private let keyOfLabel: [String: String]

    /// The keys for `labels`, in the order they are drawn.
    public init(labels: [String]) {
        let selfWritten = Set(labels.filter(Self.isWrittenAsItself))
        var pool = MarbleKeys.pool.lazy.map(String.init).filter { !selfWritten.contains($0) && !Self.reserved.contains($0) }.makeIterator()
        var legend: [LegendEntry] = []
        var keyOfLabel: [String: String] = [:]
        var overflow: Set<String> = []
        for label in labels where !Self.isWrittenAsItself(label) && keyOfLabel[label] == nil {
            if let key = pool.next() {
                keyOfLabel[label] = key
                legend.append(LegendEntry(key: key, label: label))
            } else {
                keyOfLabel[label] = Self.overflowKey
                overflow.insert(label)
            }
        }
        self.legend = legend
        self.keyOfLabel = keyOfLabel
        overflowCount = overflow.count
    }

    /// The key of `label`: itself, its letter, or ``overflowKey``.
    public func key(for label: String) -> String {
        keyOfLabel[label] ?? label
    }

    /// Whether `label` stands for itself: one character that is not a mark of the drawing.
    public static func isWrittenAsItself(_ label: String) -> Bool {
        MarbleKeys.isWrittenAsItself(label) && !reserved.contains(label)
    }

    /// `label` as the legend shows it: control characters escaped (`\n`), and cut to
    /// `limit` characters with `…` (`...` with `ascii`) when it is longer.
    public static func shortened(_ label: String, limit: Int = 40, ascii: Bool = false) -> String {
        if label.isEmpty { return "\"\" (empty)" }
        let visible = LaneFileText.escaped(label, quotes: false)
        guard visible.count > limit else { return visible }
        let ellipsis = ascii ? "..." : "…"
        return String(visible.prefix(max(1, limit - ellipsis.count))) + ellipsis
    }
}
