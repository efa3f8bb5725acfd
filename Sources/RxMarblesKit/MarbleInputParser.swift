import RxSwift
import RxTestCore

/// Turns the user's `--input` text into a `MarbleInput` through RxTestCore's marble
/// parser (one character per frame, one tick per frame).
public enum MarbleInputParser {
    /// A malformed marble string: what is wrong and at which character offset.
    public struct Failure: Error, Equatable {
        /// What is wrong, naming the character.
        public var message: String
        /// The offset of the offending character in the text.
        public var offset: Int
    }

    /// The parsed input.
    public static func parse(_ text: String) throws -> MarbleInput {
        throw Failure(message: "marble input is not available in this build yet", offset: 0)
    }
}
