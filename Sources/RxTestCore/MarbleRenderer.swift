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
        let direct = layout(sorted, step: step, origin: origin, legendKeys: false)
        if direct.needsLegendKeys {
            return layout(sorted, step: step, origin: origin, legendKeys: true).diagram
        }
        return direct.diagram
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

    // MARK: - Layout

    private struct Layout<T> {
        let diagram: MarbleDiagram<T>
        let needsLegendKeys: Bool
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

    private static func layout<T>(_ timelines: [[Recorded<Event<T>>]], step: TestTime, origin: TestTime, legendKeys: Bool) -> Layout<T> {
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

        // Keys.
        let texts = elements.map { String(describing: $0) }
        let selfDrawn = !legendKeys
            && texts.allSatisfy { text in
                text.count == 1 && !text.first!.isWhitespace && !symbols.contains(text.first!)
            }
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
        var values: [String: T] = [:]
        var legend: [String] = []
        for (index, element) in elements.enumerated() {
            values[String(elementKeys[index])] = element
            if !selfDrawn {
                legend.append("\(elementKeys[index]) = \(texts[index])")
            }
        }
        var errors: [String: Swift.Error] = [:]
        for (index, failure) in failures.enumerated() {
            errors[String(failureKeys[index])] = failure
            if let marble = failure as? MarbleDefaultError, marble.key == "#", index == 0 {
                continue
            }
            legend.append("\(failureKeys[index]) = \(failure)")
        }

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
                let token: String
                switch recorded.value {
                case .next:
                    token = String(elementKeys[elementIndex[line][position]!])
                case .error:
                    token = String(failureKeys[failureIndex[line][position]!])
                case .completed:
                    token = "|"
                }
                row[frameIndex, default: []].append(token)
                lowest = min(lowest, frameIndex)
                highest = max(highest ?? frameIndex, frameIndex)
            }
            cells.append(row)
            lastFrame.append(timeline.last.map { ($0.time - origin) / step })
            terminated.append(timeline.last?.value.isStopEvent ?? false)
        }
        let needsZero = lowest < 0
        if needsZero {
            for line in cells.indices {
                cells[line][0, default: []].insert("^", at: 0)
            }
            highest = max(highest ?? 0, 0)
        }
        guard let end = highest else {
            let diagram = MarbleDiagram(lines: timelines.map { _ in "" }, values: values, errors: errors, legend: legend, frame: step, origin: origin, columnStarts: [], firstFrame: 0)
            return Layout(diagram: diagram, needsLegendKeys: false)
        }
        let lineEnds: [Int] = cells.indices.map { line in
            guard terminated[line], let last = lastFrame[line] else { return end }
            return needsZero ? max(last, 0) : last
        }
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
        var lines: [String] = []
        var looksLikeTime = false
        // Whether a key merged with a neighbour into one grapheme cluster (a combining
        // mark after '-', "\r" before "\n" in a group, two regional indicators...): the
        // text would then read as other keys.
        var mergedCharacters = false
        for line in cells.indices {
            var row = ""
            var placed = 0
            if lineEnds[line] >= lowest {
                for frameIndex in lowest...lineEnds[line] {
                    let cell = text(line, frameIndex)
                    let tokens = cells[line][frameIndex]?.count ?? 0
                    row += cell
                    placed += tokens <= 1 ? 1 : tokens + 2
                    if frameIndex < lineEnds[line] {
                        let padding = max(0, widths[frameIndex - lowest] - cell.count)
                        row += String(repeating: " ", count: padding)
                        placed += padding
                    }
                }
            }
            let chars = Array(row)
            if chars.count != placed {
                mergedCharacters = true
            }
            for index in chars.indices where timeProgression(in: chars, at: index) != nil {
                looksLikeTime = true
            }
            lines.append(row)
        }
        let diagram = MarbleDiagram(lines: lines, values: values, errors: errors, legend: legend, frame: step, origin: origin, columnStarts: columnStarts, firstFrame: lowest)
        return Layout(diagram: diagram, needsLegendKeys: selfDrawn && (looksLikeTime || mergedCharacters))
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
