/// Finding the known name closest to a mistyped one.
public enum NearestMatch {
    /// The edit distance between `a` and `b`, ignoring case: insertions, deletions,
    /// substitutions and swaps of two adjacent characters (the commonest typing slip),
    /// each costing 1 (the optimal string alignment distance, over Unicode scalars).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        distance(scalars(of: a), scalars(of: b))
    }

    /// The lower-cased Unicode scalars of `text`: compared as integers, they make the
    /// distance cheap enough to run against every operator name for any input.
    private static func scalars(of text: String) -> [UInt32] {
        text.lowercased().unicodeScalars.map(\.value)
    }

    private static func distance(_ left: [UInt32], _ right: [UInt32]) -> Int {
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var beforePrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[right.count]
    }

    public static func nearest(to name: String, in candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        let lowered = name.lowercased()
        let wanted = scalars(of: name)
        for candidate in candidates {
            var distance = distance(wanted, scalars(of: candidate))
            if !lowered.isEmpty, candidate.lowercased().hasPrefix(lowered) {
                distance = min(distance, 1)
            }
            if best == nil || distance < best!.distance {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The nearest of `candidates` when it is close enough to be what was meant: a
    /// candidate that starts with `name`, or one within a third of the longer name's
    /// length in edits (at least 1, at most 3). `nil` for an empty name.
    public static func closeMatch(to name: String, in candidates: [String]) -> String? {
        guard !name.isEmpty, let nearest = nearest(to: name, in: candidates) else { return nil }
        if nearest.lowercased().hasPrefix(name.lowercased()) { return nearest }
        let allowed = min(3, max(1, max(name.count, nearest.count) / 3))
        return editDistance(name, nearest) <= allowed ? nearest : nil
    }

    /// The message for an unknown operator: the known one it is close to, if any, then
    /// all of them.
    public static func unknownOperatorMessage(_ name: String, known: [String]) -> String {
        var message = name.isEmpty ? "No operator is named by an empty argument." : "Unknown operator '\(name)'."
        if let nearest = closeMatch(to: name, in: known) {
            message += " Did you mean '\(nearest)'?"
        }
        message += "\nKnown operators: " + known.joined(separator: ", ")
        return message
    }
}
