/// A diagram's streams with their events in RxTest notation (virtual time = frame), as
/// `rxmarbles --events` prints them under the diagram and the playground lists them
/// beside it: `output: [.next(1, 10), .next(4, 20), .completed(6)]`, and under each
/// input its subscriptions, `source.subscriptions: [Subscription(0, 6)]`.
public enum EventListing {
    /// One line per stream, without indentation: each input and its subscriptions, then
    /// a chain's or comparison's stages by the operator that made them, then the output.
    public static func lines(of diagram: OperatorDiagram) -> [String] {
        var lines: [String] = []
        // Inputs by their names; a chain's stages by the operator that made them.
        let names = diagram.inputs.map(\.name)
            + diagram.stages.map { $0.output.name.isEmpty ? "\($0.name) output" : $0.output.name }
            + [diagram.output.name.isEmpty ? "output" : diagram.output.name]
        for (row, (timeline, name)) in zip(diagram.timelines, names).enumerated() {
            let events = timeline.events.map { event -> String in
                switch event.kind {
                case .next(let label): return ".next(\(event.frame), \(Int(label) != nil ? label : "\"\(label)\""))"
                case .completed: return ".completed(\(event.frame))"
                case .error(let message): return ".error(\(event.frame), \(message))"
                }
            }
            lines.append("\(name): [" + events.joined(separator: ", ") + "]")
            if row < diagram.inputs.count {
                let spans = timeline.subscriptions.map { span in
                    span.end.map { "Subscription(\(span.start), \($0))" } ?? "Subscription(\(span.start))"
                }
                lines.append("\(name).subscriptions: [" + spans.joined(separator: ", ") + "]")
            }
        }
        return lines
    }

    /// The lines as the terminal shows them: each indented by two spaces, the last one
    /// ended by a newline too.
    public static func text(of diagram: OperatorDiagram) -> String {
        lines(of: diagram).map { "  " + $0 }.joined(separator: "\n") + "\n"
    }
}
