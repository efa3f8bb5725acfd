import Foundation
import RxLanes
import RxMarblesKit
import RxSwift
import RxTestCore

/// What the playground page asks the server, answered without any HTTP: the gallery's
/// operators, and the diagram of one operator run on the inputs typed in the page.
///
/// Every answer is computed by running the real operator on a `TestScheduler`, as
/// `rxmarbles` does in the terminal.
public enum Playground {
    /// The longest marble text accepted for one input, in characters.
    public static let maximumInputLength = 200
    /// The most inputs accepted for one diagram.
    public static let maximumInputCount = 8

    /// The numbers the page works with, served so that it does not repeat them.
    public struct Limits: Codable, Equatable, Sendable {
        /// The longest marble text accepted for one input, in characters.
        public var maximumInputLength: Int
        /// The most inputs accepted for one diagram.
        public var maximumInputCount: Int
        /// The width of a frame with nothing wider in it, in the picture's pixels.
        public var frameWidth: Int
    }

    /// The limits of this server.
    public static let limits = Limits(
        maximumInputLength: maximumInputLength, maximumInputCount: maximumInputCount, frameWidth: SVGRenderer().metrics.frameWidth
    )

    /// One operator of the gallery, as the page lists it.
    public struct Operator: Codable, Equatable, Sendable {
        /// The name (`combineLatest`).
        public var name: String
        /// The family heading (`Combining`).
        public var family: String
        /// A one-line description.
        public var summary: String
        /// The default inputs: names and marble text.
        public var inputs: [Input]
        /// The fewest inputs it takes.
        public var minimumInputs: Int
        /// The most inputs it takes (`nil`: no limit but ``maximumInputCount``).
        public var maximumInputs: Int?
    }

    /// One default input of an operator.
    public struct Input: Codable, Equatable, Sendable {
        /// The name shown beside it (`source`, `a`).
        public var name: String
        /// Its marble text.
        public var marbles: String
        /// Whether it is cold (its events are timed from each subscription).
        public var cold: Bool
        /// What it takes as an element key (`a digit 0-9 (...)`).
        public var accepts: String
    }

    /// A computed diagram.
    public struct Diagram: Codable, Equatable, Sendable {
        /// The operator's name (`map`; `filter → map` for a chain, `flatMap vs concatMap`
        /// for a comparison).
        public var `operator`: String
        /// The call that produced the output.
        public var call: String
        /// The SVG picture of inputs, call and output.
        public var svg: String
        /// Each stream's events in RxTest notation (`output: [.next(1, 10), ...]`).
        public var events: [String]
        /// The x of each frame in the picture, so that the page can turn a drag into frames.
        public var frameX: [Int]
        /// For each input, where its events stand in its marble text, in the order the
        /// picture draws them (elements, completions and errors alike).
        public var inputMarbles: [[Marble]]
        /// The diagram written as a test, by kind (`xctest`, `swift-testing`), as
        /// `rxmarbles --test` writes it.
        public var tests: [String: String]
    }

    /// An event of an input: its frame in the picture, its position in the text and
    /// what it is (`element`, `completed` or `error`).
    public struct Marble: Codable, Equatable, Sendable {
        /// The frame in the picture.
        public var frame: Int
        /// The position of its character in the input's marble text.
        public var position: Int
        /// `element`, `completed` or `error`.
        public var kind: String

        /// An event at `frame`, written at `position`.
        public init(frame: Int, position: Int, kind: String = "element") {
            self.frame = frame
            self.position = position
            self.kind = kind
        }
    }

    /// Why a request could not be answered: a message for the page, and where in which
    /// input, or on which line of a lanes recording, the problem is, if it is about one
    /// place.
    public struct Problem: Error, Codable, Equatable, Sendable {
        /// The HTTP status: 400 for a malformed request, 404 for an unknown operator,
        /// 422 for marble text or a recording that cannot be read or used.
        public var status: Int
        /// What is wrong, and where.
        public var message: String
        /// The input concerned, counted from 1.
        public var input: Int?
        /// The position in that input's text of the character at fault.
        public var position: Int?
        /// The line of a lanes recording at fault, counted from 1.
        public var line: Int?
        /// The column on that line, counted from 1, when the problem is at one place.
        public var column: Int?
        /// The text of that line.
        public var lineText: String?

        /// A problem.
        public init(
            status: Int, message: String, input: Int? = nil, position: Int? = nil,
            line: Int? = nil, column: Int? = nil, lineText: String? = nil
        ) {
            self.status = status
            self.message = message
            self.input = input
            self.position = position
            self.line = line
            self.column = column
            self.lineText = lineText
        }
    }

    /// The largest lanes recording accepted, in bytes.
    public static let maximumRecordingSize = 16 * 1024 * 1024

    /// A lanes recording, drawn.
    public struct Lanes: Codable, Equatable, Sendable {
        /// The recording's file name, for a recording the server was started with.
        public var file: String?
        /// The heading: lanes, subscriptions, events, time spanned, column length.
        public var heading: String
        /// The SVG picture, with its legend (``LaneSVGRenderer``).
        public var svg: String
        /// The text drawing, without colours (``LaneTextRenderer``), as
        /// `rxmarbles lanes FILE` prints it.
        public var text: String
    }

    /// The drawing of the lanes recording `fileText` (the lanes file format), named
    /// `file` if it came from one.
    ///
    /// - Throws: ``Problem`` 422 naming the line, the column and what is wrong there,
    ///   with the line's text.
    public static func lanes(fileText: String, file: String? = nil) throws(Problem) -> Lanes {
        let recording: LaneRecording
        do {
            recording = try LaneRecording(fileText: fileText)
        } catch let error as LaneFileError {
            let lines = fileText.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            let text = error.line >= 1 && error.line <= lines.count ? String(lines[error.line - 1]) : nil
            throw Problem(status: 422, message: error.description, line: error.line, column: error.column, lineText: text)
        } catch {
            throw Problem(status: 422, message: "\(error)")
        }
        let diagram = LaneDiagram(recording)
        return Lanes(file: file, heading: diagram.heading(), svg: LaneSVGRenderer().render(diagram), text: LaneTextRenderer().render(diagram))
    }

    /// Every operator of the gallery, in display order (computed once: each one runs
    /// its example).
    public static func operators() -> [Operator] {
        operatorList
    }

    private static let operatorList: [Operator] =
        Gallery.entries.map { entry in
            let cold = entry.diagram().inputs.map(\.isCold)
            let inputs = zip(entry.inputNames, entry.defaultInputMarbles).enumerated().map { index, pair in
                Input(name: pair.0, marbles: pair.1, cold: index < cold.count && cold[index], accepts: entry.inputAccepts[index])
            }
            return Operator(
                name: entry.name, family: entry.family.rawValue, summary: entry.summary, inputs: inputs,
                minimumInputs: entry.inputCount.lowerBound,
                maximumInputs: entry.inputCount.upperBound == Int.max ? nil : entry.inputCount.upperBound
            )
        }

    /// The diagram of `operatorName` run on `inputs` (marble text, one per input; the
    /// example's own inputs when `nil`); with `chain`, followed by those operators, each
    /// on the output of the one before; with `compare`, beside those operators, on the
    /// same inputs.
    public static func diagram(operator operatorName: String?, inputs: [String]?, chain: [String] = [], compare: [String] = []) throws(Problem) -> Diagram {
        guard let operatorName, !operatorName.isEmpty else {
            throw Problem(status: 400, message: "Name an operator: op=<name>, e.g. op=map.")
        }
        guard let entry = Gallery.entry(named: operatorName) else {
            throw Problem(status: 404, message: NearestMatch.unknownOperatorMessage(operatorName, known: Gallery.names))
        }
        if !chain.isEmpty, !compare.isEmpty {
            throw Problem(status: 400, message: "Chain the operator or compare it, not both at once.")
        }
        // Each marble text is parsed once, here: the diagram is made from the parsed
        // inputs, and the inputs' marbles are placed from the same.
        let parsed = try parse(inputs)
        let diagram: OperatorDiagram
        var tests: [String: String] = [:]
        if !chain.isEmpty {
            let runs = try run(parsed) { inputs in try Gallery.chainedRuns([entry.name] + chain, inputs: inputs) }
            diagram = Gallery.chain(of: runs)
            for style in TestStyle.allCases {
                tests[style.rawValue] = try? TestWriter(style: style).write(chaining: runs)
            }
        } else if !compare.isEmpty {
            let runs = try run(parsed) { inputs in try Gallery.comparedRuns([entry.name] + compare, inputs: inputs) }
            diagram = Gallery.comparison(of: runs)
            for style in TestStyle.allCases {
                tests[style.rawValue] = try? TestWriter(style: style).write(comparing: runs)
            }
        } else if let parsed {
            diagram = try run(parsed) { inputs in try entry.diagram(inputs: inputs ?? []) }
        } else {
            diagram = entry.diagram()
        }
        if chain.isEmpty, compare.isEmpty {
            for style in TestStyle.allCases {
                tests[style.rawValue] = try? TestWriter(style: style).write(diagram, entry: entry)
            }
        }
        let renderer = SVGRenderer()
        return Diagram(
            operator: diagram.name,
            call: diagram.call,
            svg: renderer.render(diagram),
            events: EventListing.lines(of: diagram),
            frameX: renderer.geometry(diagram).frameAnchors,
            inputMarbles: parsed.map { marbles(of: diagram, inputs: $0) } ?? diagram.inputs.map { _ in [] },
            tests: tests
        )
    }

    /// The marble texts parsed (`nil`, the example's own inputs, stays `nil`), every
    /// refusal a ``Problem`` naming the input and the position at fault.
    static func parse(_ texts: [String]?) throws(Problem) -> [MarbleInput]? {
        guard let texts else { return nil }
        if texts.count > maximumInputCount {
            throw Problem(status: 400, message: "At most \(maximumInputCount) inputs, got \(texts.count).")
        }
        var parsed: [MarbleInput] = []
        for (index, text) in texts.enumerated() {
            if text.count > maximumInputLength {
                throw Problem(status: 422, message: "Input \(index + 1) has \(text.count) characters; at most \(maximumInputLength) are accepted.", input: index + 1, position: maximumInputLength)
            }
            do {
                parsed.append(try MarbleInputParser.parse(text))
            } catch {
                throw Problem(status: 422, message: "Input \(index + 1): \(error.description)", input: index + 1, position: error.position)
            }
        }
        return parsed
    }

    /// What `make` makes of the parsed inputs (`nil`: the example's own), turning every
    /// refusal into a ``Problem``.
    static func run<Result>(_ inputs: [MarbleInput]?, _ make: ([MarbleInput]?) throws -> Result) throws(Problem) -> Result {
        do {
            return try make(inputs)
        } catch let error as CombinationError {
            throw Problem(status: error.isUsageError ? 400 : 422, message: error.description)
        } catch let error as GalleryInputError {
            let message = error.description(for: .page)
            switch error {
            case .wrongInputCount:
                throw Problem(status: 400, message: message)
            case let .valueNotAccepted(_, input, _, _, _, position, _):
                throw Problem(status: 422, message: message, input: input, position: position)
            case let .coldInputBeforeZero(_, input, _):
                let text = inputs.flatMap { input <= $0.count ? $0[input - 1].text : nil } ?? ""
                throw Problem(status: 422, message: message, input: input, position: text.firstIndex(of: "^").map { text.distance(from: text.startIndex, to: $0) })
            }
        } catch {
            throw Problem(status: 422, message: "\(error)")
        }
    }

    /// For each input, its events' frames in the picture, positions in the text and
    /// kinds, in the order the picture draws them.
    static func marbles(of diagram: OperatorDiagram, inputs: [MarbleInput]) -> [[Marble]] {
        zip(diagram.inputs, inputs).map { timeline, parsed in
            // The picture keeps the text's order within a frame and draws frames in order;
            // the parser gives events in text order, so the n-th event drawn is the n-th
            // event of the text once both are sorted by time.
            let textPositions = zip(parsed.events, parsed.positions).enumerated()
                .sorted { ($0.element.0.time, $0.offset) < ($1.element.0.time, $1.offset) }
                .map(\.element.1)
            return zip(timeline.events, textPositions).map { event, position in
                let kind: String
                switch event.kind {
                case .next: kind = "element"
                case .completed: kind = "completed"
                case .error: kind = "error"
                }
                return Marble(frame: event.frame, position: position, kind: kind)
            }
        }
    }
}
