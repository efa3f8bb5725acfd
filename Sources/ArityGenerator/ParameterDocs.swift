/// The `- Parameters:` section of a generated overload's doc comment, indented for a
/// member of an extension: a line for each source, then the result selector's lines when
/// the overload takes one. Both generators use it, so every arity family documents its
/// parameters the same way (and DocC finds none undocumented).
enum ParameterDocs {
    private static let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]

    /// The section for `arity` sources.
    ///
    /// - Parameters:
    ///   - arity: The number of sources, `source1` to `source<arity>`.
    ///   - source: What one source is, given its ordinal ("first", "second", ...).
    ///   - resultSelector: The lines that describe the result selector; none when the
    ///     overload has no selector.
    static func section(_ arity: Int, source: (String) -> String, resultSelector: [String] = []) -> String {
        var lines = ["- Parameters:"]
        lines += (1...arity).map { "  - source\($0): \(source(ordinals[$0 - 1]))" }
        if let first = resultSelector.first {
            lines.append("  - resultSelector: \(first)")
            lines += resultSelector.dropFirst().map { "    \($0)" }
        }
        return lines.map { "    /// \($0)" }.joined(separator: "\n")
    }

    /// A source of an overload with a result selector.
    static func selectorArgument(_ ordinal: String) -> String {
        "The source of the selector's \(ordinal) argument."
    }

    /// A source of an overload that makes tuples.
    static func tupleElement(_ ordinal: String) -> String {
        "The source of each tuple's \(ordinal) element."
    }
}
