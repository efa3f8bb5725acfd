import RxSwift

/// The failure text for two differing recordings: both lists, and the first
/// position where they differ.
public func recordedEventsMismatchMessage<T: Equatable>(_ actual: [Recorded<Event<T>>], _ expected: [Recorded<Event<T>>]) -> String {
    var index = 0
    while index < actual.count, index < expected.count, actual[index] == expected[index] {
        index += 1
    }
    let actualAt = index < actual.count ? "\(actual[index])" : "nothing"
    let expectedAt = index < expected.count ? "\(expected[index])" : "nothing"
    return """
    Recorded events differ at index \(index): expected \(expectedAt), got \(actualAt).
    actual:   \(actual)
    expected: \(expected)
    """
}
