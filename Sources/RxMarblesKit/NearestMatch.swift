/// Finding the known name closest to a mistyped one.
public enum NearestMatch {
    /// The Levenshtein distance between `a` and `b` (insertions, deletions and
    /// substitutions of Unicode scalars, each costing 1), ignoring case.
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
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
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

    /// The message for an unknown operator: the nearest known one, then all of them.
    public static func unknownOperatorMessage(_ name: String, known: [String]) -> String {
        var message = "Unknown operator '\(name)'."
        if let nearest = nearest(to: name, in: known) {
            message += " Did you mean '\(nearest)'?"
        }
        message += "\nKnown operators: " + known.joined(separator: ", ")
        return message
    }
}
