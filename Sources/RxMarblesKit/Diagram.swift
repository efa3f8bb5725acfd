import RxSwift
import RxTestCore

/// What happens at one frame of a timeline.
public enum MarbleEventKind: Equatable, Sendable {
    /// An element, drawn with its label.
    case next(String)
    /// A failure; the text describes the error.
    case error(String)
    /// Completion.
    case completed

    /// The characters a text diagram shows for it.
    public var symbol: String {
        switch self {
        case .next(let label): return label
        case .error: return "#"
        case .completed: return "|"
        }
    }

    /// `true` for `error` and `completed`.
    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }
}

/// One event of a timeline at a frame (a column of the diagram).
public struct MarbleEvent: Equatable, Sendable {
    /// The frame, counted from 0 at the subscription of the output.
    public var frame: Int
    /// What happens there.
    public var kind: MarbleEventKind

    /// An event at `frame`.
    public init(frame: Int, kind: MarbleEventKind) {
        self.frame = frame
        self.kind = kind
    }
}

/// When a stream was subscribed to (`start`) and when that subscription was disposed
/// (`end`, `nil` while it lasts), in frames.
public struct FrameSpan: Equatable, Sendable {
    /// The frame of the subscription.
    public var start: Int
    /// The frame of the disposal, if any.
    public var end: Int?

    /// A span.
    public init(start: Int, end: Int?) {
        self.start = start
        self.end = end
    }
}

/// One stream of a diagram: an input or the output.
public struct Timeline: Equatable, Sendable {
    /// The name shown beside the stream (`a`, `source`...); empty for none.
    public var name: String
    /// The events in time order (events at one frame keep their order).
    public var events: [MarbleEvent]
    /// Whether the stream replays its events relative to each subscription.
    public var isCold: Bool
    /// The subscriptions the operator made to this input.
    public var subscriptions: [FrameSpan]
    /// The frame of the stream's zero point when it is not frame 0 (drawn `^`): an
    /// output subscribed later, or an input typed with a `^`.
    public var zeroFrame: Int?

    /// A timeline; the events are put in frame order, keeping the order within a frame.
    public init(name: String, events: [MarbleEvent], isCold: Bool = false, subscriptions: [FrameSpan] = []) {
        self.name = name
        self.events = events.enumerated()
            .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
            .map(\.element)
        self.isCold = isCold
        self.subscriptions = subscriptions
    }

    /// The frame of the first terminal event, if any.
    public var terminalFrame: Int? {
        events.first { $0.kind.isTerminal }?.frame
    }

    /// The last frame with an event, a subscription or a disposal, if any.
    public var lastFrame: Int? {
        let marks = subscriptions.flatMap { [$0.start, $0.end].compactMap { $0 } }
        return (events.map(\.frame) + marks).max()
    }

    /// The events at `frame`, in order.
    public func events(at frame: Int) -> [MarbleEvent] {
        events.filter { $0.frame == frame }
    }

    /// A timeline drawn from recorded events: `scale` turns their virtual times into frames.
    public init<Element>(name: String, recorded: [Recorded<Event<Element>>], scale: TimeScale = .init(), isCold: Bool = false, label: (Element) -> String = { "\($0)" }) {
        let events = recorded.map { record -> MarbleEvent in
            let kind: MarbleEventKind
            switch record.value {
            case .next(let element): kind = .next(label(element))
            case .error(let error): kind = .error("\(error)")
            case .completed: kind = .completed
            }
            return MarbleEvent(frame: scale.frame(of: record.time), kind: kind)
        }
        self.init(name: name, events: events, isCold: isCold)
    }
}

/// How virtual times map to frames: frame = (time - origin) / ticksPerFrame.
public struct TimeScale: Equatable, Sendable {
    /// The virtual time of frame 0.
    public var origin: TestTime
    /// Virtual ticks per frame.
    public var ticksPerFrame: Int

    /// A scale with frame 0 at `origin`.
    public init(origin: TestTime = 0, ticksPerFrame: Int = 1) {
        precondition(ticksPerFrame > 0, "Rivulet: a time scale needs at least one tick per frame, got \(ticksPerFrame).")
        self.origin = origin
        self.ticksPerFrame = ticksPerFrame
    }

    /// The frame of virtual time `time` (times before the origin clamp to frame 0).
    public func frame(of time: TestTime) -> Int {
        max(0, (time - origin) / ticksPerFrame)
    }

    /// The virtual time at which `frame` starts.
    public func time(ofFrame frame: Int) -> TestTime {
        origin + frame * ticksPerFrame
    }
}

/// A marble diagram: input streams, the operator call, and the output it produced.
public struct OperatorDiagram: Equatable, Sendable {
    /// The operator's name (`combineLatest`).
    public var name: String
    /// A one-line description.
    public var summary: String
    /// The input streams, top to bottom.
    public var inputs: [Timeline]
    /// The call that produced the output (`combineLatest(a, b) { "\($0)\($1)" }`).
    public var call: String
    /// The output stream.
    public var output: Timeline
    /// How many frames the diagram spans at least (streams that never end run this far).
    public var minimumFrameCount: Int
    /// Whether the inputs' subscriptions are the point of the example (for sharing
    /// operators), so that text output always shows them.
    public var showsSubscriptions = false
    /// The operators before the last one, for a chain (each one's output feeds the
    /// next) or a comparison (each one runs on the inputs): drawn between the inputs and
    /// the last call, each as its box and its output.
    public var stages: [Stage] = []
    /// Whether the outputs are alternatives to compare, so that where one differs from
    /// the first is marked.
    public var comparesOutputs = false

    /// One operator of a chain or a comparison, with what it produced.
    public struct Stage: Equatable, Sendable {
        /// The operator's name.
        public var name: String
        /// Its call.
        public var call: String
        /// What it produced.
        public var output: Timeline
    }

    /// The call and output of every operator, the stages first, the last one's last.
    public var steps: [(call: String, output: Timeline)] {
        stages.map { ($0.call, $0.output) } + [(call, output)]
    }

    /// The frames at which output `index` of a comparison (of ``steps``) differs from
    /// the first: where the events there are not the same.
    public func differingFrames(ofStep index: Int) -> Set<Int> {
        let first = steps[0].output.events
        let other = steps[index].output.events
        let frames = Set(first.map(\.frame) + other.map(\.frame))
        return frames.filter { frame in
            first.filter { $0.frame == frame }.map(\.kind.symbol) != other.filter { $0.frame == frame }.map(\.kind.symbol)
        }
    }

    /// How the example ran, for writing it as a test: the Swift type of each input's
    /// elements and of the output's, and the frame the output was disposed at (`nil`
    /// for a diagram that did not come from a run).
    public var run: RunFacts?

    /// How an example ran on its `TestScheduler`.
    public struct RunFacts: Equatable, Sendable {
        /// The element type of each input (`Int`, `String`).
        public var inputTypes: [String]
        /// The element type of the output.
        public var outputType: String
        /// When the output was subscribed.
        public var subscribeFrame: Int
        /// When the output was disposed.
        public var disposeFrame: Int
    }

    /// A diagram.
    public init(name: String, summary: String, inputs: [Timeline], call: String, output: Timeline, minimumFrameCount: Int = 0) {
        self.name = name
        self.summary = summary
        self.inputs = inputs
        self.call = call
        self.output = output
        self.minimumFrameCount = minimumFrameCount
    }

    /// Every stream, inputs first, then each stage's output, the output last.
    public var timelines: [Timeline] {
        inputs + stages.map(\.output) + [output]
    }

    /// The number of frames drawn: one past the last event of any stream (so that a
    /// stream that did not end visibly goes on), and at least `minimumFrameCount`.
    public var frameCount: Int {
        let last = timelines.compactMap(\.lastFrame).max() ?? -1
        return max(minimumFrameCount, last + 2)
    }
}

extension OperatorDiagram {
    /// The palette index of every event, per stream (inputs first, the output last),
    /// chosen by where the value came from, so that a value can be followed through
    /// the operator: an input element takes its label's colour; an output element
    /// takes the colour of the element above it that it came from, which is the one
    /// with the same label if a stream above has it (`filter`, `delay`, `merge`), or
    /// else the element above at the same frame (`map`, `scan`, `combineLatest`; the
    /// lowest stream's when several emit at once), or else the latest element above
    /// before it (`reduce`); one with no element above before it keeps its label's own
    /// colour. In a chain, a stage's output follows the streams above it the same way.
    public func paletteIndices() -> [[Int]] {
        var result: [[Int]] = []
        // The elements above the row being coloured with their colours, in frame order,
        // streams in order within a frame: the last one at or before a frame is the
        // latest element there.
        var above: [(frame: Int, label: String, color: Int)] = []
        var colorOfLabel: [String: Int] = [:]
        for (row, timeline) in timelines.enumerated() {
            let colors = timeline.events.map { event -> Int in
                guard case .next(let label) = event.kind else { return 0 }
                if row < inputs.count { return MarblePalette.index(for: label) }
                if let known = colorOfLabel[label] { return known }
                return above.last { $0.frame <= event.frame }?.color ?? MarblePalette.index(for: label)
            }
            result.append(colors)
            for (event, color) in zip(timeline.events, colors) {
                guard case .next(let label) = event.kind else { continue }
                above.append((event.frame, label, color))
                if colorOfLabel[label] == nil { colorOfLabel[label] = color }
            }
            above = above.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        }
        return result
    }
}
