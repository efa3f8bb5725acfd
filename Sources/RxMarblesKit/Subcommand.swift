/// A command of its own under `rxmarbles`, chosen by its name as the first argument
/// (`rxmarbles serve --port 0`): it has its own options and help, and gets the arguments
/// after its name. Any other first argument belongs to the root command, whose plain
/// argument is an operator (`rxmarbles debounce`); the root help lists every subcommand.
public enum RxMarblesSubcommand: String, CaseIterable, Sendable {
    /// `rxmarbles serve`: the marble playground in a browser (RxMarblesServer's
    /// `ServeCommand`).
    case serve
    /// `rxmarbles lanes FILE`: a lanes recording drawn as text, SVG or HTML
    /// (``LanesCommand``).
    case lanes

    /// The name that chooses it.
    public var name: String { rawValue }

    /// Its usage, without the `USAGE:` label.
    public var synopsis: String {
        switch self {
        case .serve: return "rxmarbles serve [--port <port>] [--host <host>] [--lanes <file>]"
        case .lanes: return "rxmarbles lanes <file> [--svg | --html] [--ascii] [--color <when>]"
        }
    }

    /// What it does, in a line of the root help.
    public var abstract: String {
        switch self {
        case .serve: return "The marble playground in a browser."
        case .lanes: return "Draws a lanes recording of a running pipeline."
        }
    }

    /// The subcommand that `arguments` (those after the program's name) choose, with the
    /// arguments after its name; `nil` when they are the root command's.
    public static func chosen(by arguments: [String]) -> (subcommand: RxMarblesSubcommand, arguments: [String])? {
        guard let first = arguments.first, let subcommand = RxMarblesSubcommand(rawValue: first) else { return nil }
        return (subcommand, Array(arguments.dropFirst()))
    }
}

extension RxMarblesCommand {
    /// Runs what `arguments` (those after the program's name) ask for and exits: a
    /// subcommand through `subcommand`, given the arguments after its name; anything
    /// else as ``main(_:)`` does.
    public static func main(
        _ arguments: [String], subcommand: (RxMarblesSubcommand, [String]) async -> Never
    ) async -> Never {
        if let (chosen, rest) = RxMarblesSubcommand.chosen(by: arguments) {
            await subcommand(chosen, rest)
        }
        main(arguments)
    }
}
