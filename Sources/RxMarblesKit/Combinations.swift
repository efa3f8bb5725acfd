import RxSwift
import RxTestCore

/// Why operators could not be chained or compared.
public struct CombinationError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in the reader's words.
    public var description: String
    /// Whether it is a usage error (exit 64) rather than a data error (exit 65).
    public var isUsageError: Bool
}

extension Gallery {
    /// The fewest and most operators a chain or a comparison takes.
    public static let combinationSize = 2...6

    /// Looks up every name, refusing unknown ones and counts out of range.
    static func entries(named names: [String], for what: String) throws(CombinationError) -> [GalleryEntry] {
        guard combinationSize.contains(names.count) else {
            throw CombinationError(description: "\(what) takes \(combinationSize.lowerBound) to \(combinationSize.upperBound) operators, got \(names.count).", isUsageError: true)
        }
        var found: [GalleryEntry] = []
        for name in names {
            guard let entry = entry(named: name) else {
                throw CombinationError(description: NearestMatch.unknownOperatorMessage(name, known: Gallery.names), isUsageError: true)
            }
            found.append(entry)
        }
        return found
    }

    /// Operators one after another, each one's output the next one's input, computed by
    /// the real operators: the first runs on `inputs` (its example's when `nil`), every
    /// later one on what the one before it produced, so each must take one input. A
    /// stage gets that output as it happened, a hot stream, as the operators composed
    /// in code would (an operator that subscribes late, or again, does not replay it).
    public static func chain(_ names: [String], inputs: [MarbleInput]?) throws -> OperatorDiagram {
        chain(of: try chainedRuns(names, inputs: inputs))
    }

    /// Each operator of a chain with its own diagram: the first on the inputs, every
    /// later one on the output of the one before; all of them run until the same frame,
    /// as the operators composed in one subscription would.
    public static func chainedRuns(_ names: [String], inputs: [MarbleInput]?) throws -> [(entry: GalleryEntry, diagram: OperatorDiagram)] {
        let entries = try entries(named: names, for: "A chain")
        for entry in entries.dropFirst() where !entry.inputCount.contains(1) {
            throw CombinationError(description: "\(entry.name) cannot follow another operator in a chain: it takes \(entry.inputNames.count) inputs (\(entry.inputNames.joined(separator: ", "))), and a chain gives it one.", isUsageError: true)
        }
        // Once with each operator's own end, to learn the latest; then all until then.
        let first = try runs(of: entries, inputs: inputs, until: nil)
        let end = first.compactMap { $0.diagram.run?.disposeFrame }.max()
        return try runs(of: entries, inputs: inputs, until: end)
    }

    private static func runs(of entries: [GalleryEntry], inputs: [MarbleInput]?, until end: Int?) throws -> [(entry: GalleryEntry, diagram: OperatorDiagram)] {
        var runs = [(entry: entries[0], diagram: try entries[0].diagram(inputs: inputs, until: end))]
        for (previous, entry) in zip(entries, entries.dropFirst()) {
            let fed = marbleInput(from: runs[runs.count - 1].diagram.output)
            do {
                runs.append((entry, try entry.diagram(inputs: [fed], until: end)))
            } catch let error as GalleryInputError {
                guard case let .valueNotAccepted(_, _, _, key, frame, _, expected) = error else { throw error }
                throw CombinationError(description: "\(entry.name) cannot take what \(previous.name) gives it: '\(key)' at frame \(frame) is not \(expected).", isUsageError: false)
            }
        }
        return runs
    }

    /// The diagram of a chain from each operator's diagram.
    public static func chain(of runs: [(entry: GalleryEntry, diagram: OperatorDiagram)]) -> OperatorDiagram {
        var diagram = runs[0].diagram
        diagram.stages = runs.dropLast().map { run in
            OperatorDiagram.Stage(name: run.entry.name, call: run.diagram.call, output: run.diagram.output)
        }
        let last = runs[runs.count - 1].diagram
        diagram.call = last.call
        diagram.output = last.output
        diagram.minimumFrameCount = runs.map(\.diagram.minimumFrameCount).max() ?? 0
        diagram.name = runs.map(\.entry.name).joined(separator: " → ")
        diagram.summary = "Each operator's output is the next one's input."
        diagram.run = nil
        return diagram
    }

    /// Operators side by side on the same inputs (`inputs`, or the first one's
    /// example's), each output under its call, where one differs from the first marked.
    public static func compare(_ names: [String], inputs: [MarbleInput]?) throws -> OperatorDiagram {
        comparison(of: try comparedRuns(names, inputs: inputs))
    }

    /// The diagram of a comparison from each operator's diagram on the same inputs.
    public static func comparison(of compared: [(entry: GalleryEntry, diagram: OperatorDiagram)]) -> OperatorDiagram {
        let entries = compared.map(\.entry)
        let runs = compared.map { run in
            var diagram = run.diagram
            diagram.output.name = run.entry.name
            return diagram
        }
        var diagram = runs[runs.count - 1]
        diagram.inputs = runs[0].inputs
        diagram.stages = zip(entries, runs).dropLast().map { entry, run in
            OperatorDiagram.Stage(name: entry.name, call: run.call, output: run.output)
        }
        diagram.comparesOutputs = true
        diagram.showsSubscriptions = false
        diagram.name = entries.map(\.name).joined(separator: " vs ")
        diagram.summary = "The same inputs through each operator; where an output differs from the first is marked."
        diagram.minimumFrameCount = runs.map(\.minimumFrameCount).max() ?? 0
        diagram.run = nil
        return diagram
    }

    /// Each operator of a comparison with its own diagram on the shared inputs (`inputs`,
    /// or the first one's example's).
    public static func comparedRuns(_ names: [String], inputs: [MarbleInput]?) throws -> [(entry: GalleryEntry, diagram: OperatorDiagram)] {
        let entries = try entries(named: names, for: "A comparison")
        let texts = try inputs ?? entries[0].defaultInputMarbles.map { try MarbleInputParser.parse($0) }
        var runs: [(entry: GalleryEntry, diagram: OperatorDiagram)] = []
        for entry in entries {
            guard entry.inputCount.contains(texts.count) else {
                throw CombinationError(description: "\(entry.name) takes \(entry.inputNames.count) inputs (\(entry.inputNames.joined(separator: ", "))) and \(entries[0].name) \(texts.count): compared operators take the same inputs.", isUsageError: true)
            }
            runs.append((entry, try entry.diagram(inputs: texts)))
        }
        return runs
    }

    /// A stream fed to the next operator of a chain: its events, keys being the labels.
    static func marbleInput(from timeline: Timeline) -> MarbleInput {
        let events = timeline.events.map { event -> Recorded<Event<String>> in
            switch event.kind {
            case .next(let label): return Recorded(time: event.frame, value: .next(label))
            case .error: return Recorded(time: event.frame, value: .error(MarbleDefaultError()))
            case .completed: return Recorded(time: event.frame, value: .completed)
            }
        }
        var input = MarbleInput(events: events, frameCount: (timeline.lastFrame ?? -1) + 1)
        input.isHot = true
        return input
    }
}
