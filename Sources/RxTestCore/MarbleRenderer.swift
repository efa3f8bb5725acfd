import RxSwift

/// Recorded events drawn as marble text: one line per timeline, columns aligned across
/// lines, and the keys used so that the text parses back to the same events.
///
/// ```swift
/// let diagram = Marbles.render([.next(210, 10), .next(230, 20), .completed(250)])
/// diagram.marbles   // "---------------------a-b-|"   (frame 10)
/// diagram.legend    // ["a = 10", "b = 20"]
/// try Marbles.parse(diagram.marbles, values: diagram.values, errors: diagram.errors,
///                   frame: diagram.frame, origin: diagram.origin)   // the same events
/// ```
public struct MarbleDiagram<Element>: CustomStringConvertible {
    /// One marble line per timeline, in the order given.
    public let lines: [String]
    /// The element of each key used in `lines`.
    public let values: [String: Element]
    /// The error of `#` and of any other error key used in `lines`.
    public let errors: [String: Swift.Error]
    /// `key = value` for every key that is not the element's own text, values first.
    public let legend: [String]
    /// Ticks per frame (per column).
    public let frame: TestTime
    /// The virtual time of the zero point: the first frame, or `^` when events come
    /// before `origin`.
    public let origin: TestTime

    /// Character offset in each line of every frame's column, from `firstFrame` on.
    let columnStarts: [Int]
    /// The frame index (time - origin) / frame of the first column.
    let firstFrame: Int
    /// Whether the lines mark `origin` with `^`.
    package let marksZero: Bool

    /// The first line (the whole diagram of a single timeline).
    public var marbles: String {
        lines.first ?? ""
    }

    /// The lines, then the legend on its own line when there is one.
    public var description: String {
        var text = lines.joined(separator: "\n")
        if !legend.isEmpty {
            text += "\n" + legend.joined(separator: ", ")
        }
        return text
    }

    /// The character offset in a line of the column holding `time`, or `nil` when
    /// `time` is not on a column of the diagram.
    public func column(of time: TestTime) -> Int? {
        let offset = time - origin
        guard offset % frame == 0 else { return nil }
        let index = offset / frame - firstFrame
        guard index >= 0, index < columnStarts.count else { return nil }
        return columnStarts[index]
    }
}

extension MarbleDiagram: Sendable where Element: Sendable {}

/// Subscriptions drawn as subscription marbles, one line per subscription.
public struct MarbleSubscriptionDiagram: Hashable, Sendable, CustomStringConvertible {
    /// One line per subscription, in the order given: `"--^---!"`.
    public let lines: [String]
    /// Ticks per frame.
    public let frame: TestTime
    /// The virtual time of the first column.
    public let origin: TestTime

    /// The lines, one per row.
    public var description: String {
        lines.joined(separator: "\n")
    }
}

extension Marbles {
    /// Draws recorded events as a marble line (see ``Marbles`` for the grammar).
    ///
    /// Elements whose text is a single character that is not a marble symbol are drawn
    /// as themselves; otherwise every element gets a letter and `legend` says which.
    /// The first error is `#`, further distinct errors get keys of their own. Events at
    /// the same time form a group. Events before `origin` put a `^` at `origin`.
    ///
    /// - Parameters:
    ///   - events: The events, in time order (others are sorted, keeping the order of
    ///     simultaneous ones).
    ///   - frame: Ticks per column; when an event time is not a multiple of it from
    ///     `origin`, the largest frame that divides them all is used. `nil` picks the
    ///     largest frame that fits every time.
    ///   - origin: The virtual time of the first column.
    public static func render<T>(_ events: [Recorded<Event<T>>], frame: TestTime? = nil, origin: TestTime = 0) -> MarbleDiagram<T> {
        render(timelines: [events], frame: frame, origin: origin)
    }

    /// The ticks per column: the greatest common divisor of the `offsets` from the first
    /// column, and of `frame` when one is asked for; 1 when every offset is 0.
    private static func columnStep(offsets: [TestTime], frame: TestTime?) -> TestTime {
        let divisor = offsets.reduce(0) { gcd($0, abs($1)) }
        if let frame, frame > 0 { return gcd(frame, divisor) }
        return divisor == 0 ? 1 : divisor
    }

    /// Draws several timelines with aligned columns and shared keys, one line each.
    public static func render<T>(timelines: [[Recorded<Event<T>>]], frame: TestTime? = nil, origin: TestTime = 0) -> MarbleDiagram<T> {
        let sorted = timelines.map(sortedByTime)
        let step = columnStep(offsets: sorted.joined().map { $0.time - origin }, frame: frame)
        let direct = freshKeys(sorted, legendKeys: false)
        if direct.selfDrawn {
            let drawn = arrange(sorted, direct.keys, step: step, origin: origin)
            if !drawn.looksLikeTime, !drawn.mergedCharacters {
                return drawn.diagram
            }
            return arrange(sorted, freshKeys(sorted, legendKeys: true).keys, step: step, origin: origin).diagram
        }
        return arrange(sorted, direct.keys, step: step, origin: origin).diagram
    }

    /// Draws timelines in the terms of the marbles some of their events were parsed from:
    /// an event that carries the key it was written with is drawn with it, any other
    /// value with the key the text gave it (in `books`), and only a value none of them
    /// names gets a key of its own (itself when it is one free character, else a letter).
    ///
    /// With a `layout`, the lines follow the text: its frame (when every event is on it),
    /// its `^` and its frames before it, and RxSwift's one tick per character of a key.
    /// The result is meant for reading; keys longer than one character do not parse back.
    package static func render<T>(
        timelines: [[Recorded<Event<T>>]],
        keysFrom books: [MarbleKeyBook],
        layout: MarbleLayout?,
        origin: TestTime
    ) -> MarbleDiagram<T> {
        let sorted = timelines.map(sortedByTime)
        var offsets = sorted.joined().map { $0.time - origin }
        if let layout { offsets.append(layout.start - origin) }
        let step = columnStep(offsets: offsets, frame: layout?.frame)
        return arrange(
            sorted, writtenKeys(sorted, books: books), step: step, origin: origin,
            start: layout?.start, marksZero: layout?.marksZero ?? false, keysSpanTicks: layout?.keysSpanTicks ?? false
        ).diagram
    }

    /// Draws subscriptions as subscription marbles, one line each, with a shared frame.
    ///
    /// - Parameters:
    ///   - subscriptions: The subscriptions.
    ///   - frame: Ticks per column, as in ``render(_:frame:origin:)``.
    ///   - origin: The virtual time of the first column; an earlier subscription moves it
    ///     back to its own time.
    public static func renderSubscriptions(_ subscriptions: [Subscription], frame: TestTime? = nil, origin: TestTime = 0) -> MarbleSubscriptionDiagram {
        let start = subscriptions.map(\.subscribe).reduce(origin, min)
        let offsets = subscriptions.flatMap { subscription in
            subscription.unsubscribe == Int.max ? [subscription.subscribe - start] : [subscription.subscribe - start, subscription.unsubscribe - start]
        }
        let step = columnStep(offsets: offsets, frame: frame)
        let lines = subscriptions.map { subscription -> String in
            let subscribed = (subscription.subscribe - start) / step
            var line = String(repeating: "-", count: subscribed)
            if subscription.unsubscribe == Int.max {
                return line + "^"
            }
            let disposed = (subscription.unsubscribe - start) / step
            if disposed <= subscribed {
                line += disposed == subscribed ? "(^!)" : "^"
                return line
            }
            line += "^" + String(repeating: "-", count: disposed - subscribed - 1) + "!"
            return line
        }
        return MarbleSubscriptionDiagram(lines: lines, frame: step, origin: start)
    }

    // MARK: - Keys

    /// The text each event is drawn as, and what the keys stand for.
    private struct Keys<T> {
        /// Per timeline, per event: its key, or `|`.
        var tokens: [[String]] = []
        var values: [String: T] = [:]
        var errors: [String: Swift.Error] = [:]
        var legend: [String] = []
    }

    private static let keyPool: [Character] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZαβγδεζηθικλμνξοπρστυφχψωΓΔΘΛΞΠΣΦΨΩ")

    /// The `n`th key of the pool, continuing into CJK ideographs past its end.
    private static func poolKey(_ n: Int) -> Character {
        if n < keyPool.count {
            return keyPool[n]
        }
        let scalar = Unicode.Scalar(0x4E00 + (n - keyPool.count)) ?? "?"
        return Character(scalar)
    }

    /// Keys of the renderer's own: elements that are single characters stand for
    /// themselves (`selfDrawn`) unless `legendKeys` asks for letters; the first error is
    /// `#`, further distinct errors get letters.
    private static func freshKeys<T>(_ timelines: [[Recorded<Event<T>>]], legendKeys: Bool) -> (keys: Keys<T>, selfDrawn: Bool) {
        // Distinct elements and errors, in order of appearance.
        var elements: [T] = []
        var elementIndex: [[Int?]] = []
        var failures: [Swift.Error] = []
        var failureIndex: [[Int?]] = []
        for timeline in timelines {
            var elementRow: [Int?] = []
            var failureRow: [Int?] = []
            for recorded in timeline {
                switch recorded.value {
                case .next(let element):
                    elementRow.append(index(of: element, in: &elements, matching: sameValue))
                    failureRow.append(nil)
                case .error(let error):
                    failureRow.append(index(of: error, in: &failures, matching: errorsAreEqual))
                    elementRow.append(nil)
                case .completed:
                    elementRow.append(nil)
                    failureRow.append(nil)
                }
            }
            elementIndex.append(elementRow)
            failureIndex.append(failureRow)
        }

        let texts = elements.map { String(describing: $0) }
        let selfDrawn = !legendKeys
            && texts.allSatisfy(isOwnKey)
            && Set(texts).count == texts.count
        var elementKeys: [Character] = []
        var nextPoolKey = 0
        var used = Set<Character>()
        for text in texts {
            if selfDrawn {
                elementKeys.append(text.first!)
            } else {
                elementKeys.append(poolKey(nextPoolKey))
                nextPoolKey += 1
            }
            used.insert(elementKeys[elementKeys.count - 1])
        }
        var failureKeys: [Character] = []
        for index in failures.indices {
            if index == 0 {
                failureKeys.append("#")
                continue
            }
            var key = poolKey(nextPoolKey)
            nextPoolKey += 1
            while used.contains(key) {
                key = poolKey(nextPoolKey)
                nextPoolKey += 1
            }
            used.insert(key)
            failureKeys.append(key)
        }
        var keys = Keys<T>()
        for (index, element) in elements.enumerated() {
            keys.values[String(elementKeys[index])] = element
            if !selfDrawn {
                keys.legend.append("\(elementKeys[index]) = \(texts[index])")
            }
        }
        for (index, failure) in failures.enumerated() {
            keys.errors[String(failureKeys[index])] = failure
            if isUnnamedDefault(failure, key: String(failureKeys[index])) { continue }
            keys.legend.append("\(failureKeys[index]) = \(failure)")
        }
        keys.tokens = timelines.indices.map { line in
            timelines[line].indices.map { position in
                switch timelines[line][position].value {
                case .next: String(elementKeys[elementIndex[line][position]!])
                case .error: String(failureKeys[failureIndex[line][position]!])
                case .completed: "|"
                }
            }
        }
        return (keys, selfDrawn)
    }

    /// The keys a test wrote (see ``render(timelines:keysFrom:layout:origin:)``): first
    /// each event's own key, then for the others the key already drawn for the same
    /// value, a key of `books`, the value itself when it is one free character, or a
    /// letter no text uses. A key never stands for two values.
    private static func writtenKeys<T>(_ timelines: [[Recorded<Event<T>>]], books: [MarbleKeyBook]) -> Keys<T> {
        var keys = Keys<T>()
        // Keys in order of first use, with what they stand for.
        var elementKeys: [(key: String, element: T)] = []
        var errorKeys: [(key: String, error: Swift.Error)] = []
        var reserved = Set(books.flatMap { $0.values.map(\.key) + $0.errors.map(\.key) })
        for timeline in timelines {
            for recorded in timeline {
                if let key = recorded.marbleKey?.key { reserved.insert(key) }
            }
        }
        var nextPoolKey = 0

        func isFree(_ key: String) -> Bool {
            !elementKeys.contains { $0.key == key } && !errorKeys.contains { $0.key == key }
        }
        func claim(_ key: String, for element: T) -> Bool {
            if let taken = elementKeys.first(where: { $0.key == key }) { return sameValue(taken.element, element) }
            guard isFree(key) else { return false }
            elementKeys.append((key, element))
            return true
        }
        func claim(_ key: String, for error: Swift.Error) -> Bool {
            if let taken = errorKeys.first(where: { $0.key == key }) { return errorsAreEqual(taken.error, error) }
            guard isFree(key) else { return false }
            errorKeys.append((key, error))
            return true
        }
        func freshKey() -> String {
            while true {
                let key = String(poolKey(nextPoolKey))
                nextPoolKey += 1
                if !reserved.contains(key), isFree(key) { return key }
            }
        }
        func key(for element: T) -> String {
            if let drawn = elementKeys.first(where: { sameValue($0.element, element) }) { return drawn.key }
            for book in books {
                for key in book.keys(of: element) where claim(key, for: element) { return key }
            }
            let text = String(describing: element)
            if isOwnKey(text), !reserved.contains(text), claim(text, for: element) { return text }
            let key = freshKey()
            _ = claim(key, for: element)
            return key
        }
        func key(for error: Swift.Error) -> String {
            if let drawn = errorKeys.first(where: { errorsAreEqual($0.error, error) }) { return drawn.key }
            for book in books {
                for key in book.keys(of: error) where claim(key, for: error) { return key }
            }
            if !reserved.contains("#"), claim("#", for: error) { return "#" }
            let key = freshKey()
            _ = claim(key, for: error)
            return key
        }

        // The keys written come first, so that the other events take them up.
        var tokens: [[String?]] = timelines.map { timeline in
            timeline.map { recorded -> String? in
                guard let written = recorded.marbleKey?.key else { return nil }
                switch recorded.value {
                case .next(let element): return claim(written, for: element) ? written : nil
                case .error(let error): return claim(written, for: error) ? written : nil
                case .completed: return nil
                }
            }
        }
        for line in timelines.indices {
            for position in timelines[line].indices where tokens[line][position] == nil {
                switch timelines[line][position].value {
                case .next(let element): tokens[line][position] = key(for: element)
                case .error(let error): tokens[line][position] = key(for: error)
                case .completed: tokens[line][position] = "|"
                }
            }
        }
        keys.tokens = tokens.map { $0.map { $0! } }
        for (key, element) in elementKeys {
            keys.values[key] = element
            let text = String(describing: element)
            if text != key { keys.legend.append("\(key) = \(text)") }
        }
        for (key, error) in errorKeys {
            keys.errors[key] = error
            if isUnnamedDefault(error, key: key) { continue }
            keys.legend.append("\(key) = \(error)")
        }
        return keys
    }

    /// Whether `text` can stand for itself: one character that is neither a space nor a
    /// marble symbol.
    private static func isOwnKey(_ text: String) -> Bool {
        text.count == 1 && !text.first!.isWhitespace && !symbols.contains(text.first!)
    }

    /// Whether `error` is what a `#` with no error of its own stands for, drawn as `#`:
    /// it needs no legend.
    private static func isUnnamedDefault(_ error: Swift.Error, key: String) -> Bool {
        key == "#" && (error as? MarbleDefaultError)?.key == "#"
    }

    // MARK: - Layout

    /// Lines drawn from keys, and whether their text could be misread.
    private struct Arrangement<T> {
        let diagram: MarbleDiagram<T>
        /// A run of characters in a line reads as a time progression (`1ms`).
        let looksLikeTime: Bool
        /// A key merged with a neighbour into one grapheme cluster (a combining mark after
        /// '-', "\r" before "\n" in a group, two regional indicators...): the text would
        /// then read as other keys.
        let mergedCharacters: Bool
    }

    /// Lays the keys out on shared columns of `step` ticks from `origin`.
    ///
    /// - Parameters:
    ///   - start: A time the lines start at even with no event there (the first frame
    ///     of a text before its `^`).
    ///   - marksZero: Draw `^` at `origin` even with no event before it.
    ///   - keysSpanTicks: A key of several characters takes a column per character, as
    ///     in RxSwift's timelines, when no event of its line falls under it; otherwise
    ///     columns widen to fit their keys.
    private static func arrange<T>(
        _ timelines: [[Recorded<Event<T>>]],
        _ keys: Keys<T>,
        step: TestTime,
        origin: TestTime,
        start: TestTime? = nil,
        marksZero: Bool = false,
        keysSpanTicks: Bool = false
    ) -> Arrangement<T> {
        // Cells: frame index -> tokens, per line.
        var cells: [[Int: [String]]] = []
        var lastFrame: [Int?] = []
        var terminated: [Bool] = []
        var lowest = 0
        var highest: Int?
        for (line, timeline) in timelines.enumerated() {
            var row: [Int: [String]] = [:]
            for (position, recorded) in timeline.enumerated() {
                let frameIndex = (recorded.time - origin) / step
                row[frameIndex, default: []].append(keys.tokens[line][position])
                lowest = min(lowest, frameIndex)
                highest = max(highest ?? frameIndex, frameIndex)
            }
            cells.append(row)
            lastFrame.append(timeline.last.map { ($0.time - origin) / step })
            terminated.append(timeline.last?.value.isStopEvent ?? false)
        }
        let zeroMarked = lowest < 0 || marksZero
        if let start, start < origin, (origin - start) % step == 0 {
            lowest = min(lowest, (start - origin) / step)
        }
        if zeroMarked {
            for line in cells.indices {
                cells[line][0, default: []].insert("^", at: 0)
            }
            highest = max(highest ?? 0, 0)
        }
        guard let end = highest else {
            let diagram = MarbleDiagram(
                lines: timelines.map { _ in "" }, values: keys.values, errors: keys.errors, legend: keys.legend,
                frame: step, origin: origin, columnStarts: [], firstFrame: 0, marksZero: false
            )
            return Arrangement(diagram: diagram, looksLikeTime: false, mergedCharacters: false)
        }
        let lineEnds: [Int] = cells.indices.map { line in
            guard terminated[line], let last = lastFrame[line] else { return end }
            return zeroMarked ? max(last, 0) : last
        }
        let rows: [(text: String, placed: Int)]
        let columnStarts: [Int]
        if keysSpanTicks, let spans = spanningRows(cells, from: lowest, to: lineEnds) {
            rows = spans
            columnStarts = Array(0...(end - lowest))
        } else {
            (rows, columnStarts) = gridRows(cells, from: lowest, to: end, lineEnds: lineEnds)
        }
        var lines: [String] = []
        var looksLikeTime = false
        var mergedCharacters = false
        for row in rows {
            let chars = Array(row.text)
            if chars.count != row.placed {
                mergedCharacters = true
            }
            for index in chars.indices where timeProgression(in: chars, at: index) != nil {
                looksLikeTime = true
            }
            lines.append(row.text)
        }
        let diagram = MarbleDiagram(
            lines: lines, values: keys.values, errors: keys.errors, legend: keys.legend, frame: step,
            origin: origin, columnStarts: columnStarts, firstFrame: lowest, marksZero: zeroMarked
        )
        return Arrangement(diagram: diagram, looksLikeTime: looksLikeTime, mergedCharacters: mergedCharacters)
    }

    /// One column per frame, each as wide as its widest cell in any line; a group of
    /// events in one frame is `(ab)`. Also the characters each line should have, to tell
    /// merged ones.
    private static func gridRows(_ cells: [[Int: [String]]], from lowest: Int, to end: Int, lineEnds: [Int]) -> (rows: [(text: String, placed: Int)], columnStarts: [Int]) {
        func text(_ line: Int, _ frameIndex: Int) -> String {
            guard let tokens = cells[line][frameIndex], !tokens.isEmpty else { return "-" }
            return tokens.count == 1 ? tokens[0] : "(" + tokens.joined() + ")"
        }
        var widths: [Int] = []
        for frameIndex in lowest...end {
            var width = 1
            for line in cells.indices where frameIndex <= lineEnds[line] {
                width = max(width, text(line, frameIndex).count)
            }
            widths.append(width)
        }
        var columnStarts: [Int] = []
        var offset = 0
        for width in widths {
            columnStarts.append(offset)
            offset += width
        }
        var rows: [(text: String, placed: Int)] = []
        for line in cells.indices {
            var row = ""
            var placed = 0
            if lineEnds[line] >= lowest {
                for frameIndex in lowest...lineEnds[line] {
                    let cell = text(line, frameIndex)
                    let tokens = cells[line][frameIndex] ?? []
                    row += cell
                    placed += tokens.count <= 1 ? (tokens.first?.count ?? 1) : tokens.reduce(2) { $0 + $1.count }
                    if frameIndex < lineEnds[line] {
                        let padding = max(0, widths[frameIndex - lowest] - cell.count)
                        row += String(repeating: " ", count: padding)
                        placed += padding
                    }
                }
            }
            rows.append((row, placed))
        }
        return (rows, columnStarts)
    }

    /// RxSwift's timeline text: one column per frame, a key of several characters over
    /// as many columns. `nil` when a line has two events in one frame, or an event under
    /// the key before it.
    private static func spanningRows(_ cells: [[Int: [String]]], from lowest: Int, to lineEnds: [Int]) -> [(text: String, placed: Int)]? {
        var rows: [(text: String, placed: Int)] = []
        for line in cells.indices {
            var row = ""
            var placed = 0
            var frameIndex = lowest
            while frameIndex <= lineEnds[line] {
                guard let tokens = cells[line][frameIndex], !tokens.isEmpty else {
                    row += "-"
                    placed += 1
                    frameIndex += 1
                    continue
                }
                guard tokens.count == 1 else { return nil }
                let width = tokens[0].count
                for covered in frameIndex + 1 ..< frameIndex + max(1, width) where cells[line][covered] != nil {
                    return nil
                }
                row += tokens[0]
                placed += width
                frameIndex += max(1, width)
            }
            rows.append((row, placed))
        }
        return rows
    }

    /// Equal for hashable elements, otherwise the same text.
    static func sameValue<T>(_ lhs: T, _ rhs: T) -> Bool {
        if let left = lhs as? AnyHashable, let right = rhs as? AnyHashable {
            return left == right
        }
        return String(describing: lhs) == String(describing: rhs)
    }

    private static func sortedByTime<T>(_ events: [Recorded<Event<T>>]) -> [Recorded<Event<T>>] {
        var inOrder = true
        for index in events.indices.dropFirst() where events[index - 1].time > events[index].time {
            inOrder = false
            break
        }
        if inOrder { return events }
        return events.enumerated()
            .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
            .map(\.element)
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (abs(a), abs(b))
        while y != 0 {
            (x, y) = (y, x % y)
        }
        return x
    }
}

/// The index of the first of `values` that `matches` pairs with `value`; `value` is
/// appended first when none does.
private func index<T>(of value: T, in values: inout [T], matching matches: (T, T) -> Bool) -> Int {
    if let found = values.firstIndex(where: { matches($0, value) }) { return found }
    values.append(value)
    return values.count - 1
}
