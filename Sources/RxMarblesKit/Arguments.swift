/// Wrong arguments on the command line: exit status 64 (EX_USAGE in sysexits.h), the
/// message on stderr followed by the usage.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, in plain words.
    public var message: String

    /// EX_USAGE.
    public static let code: Int32 = 64

    /// A usage error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A command's arguments, split into options and plain arguments.
///
/// The rules are the usual ones: `--name value` or `--name=value` for an option that
/// takes a value (the next argument is its value whatever it looks like, so marble text
/// such as `---1|` needs no quoting tricks), `--name` for a flag, `--` to end the
/// options. Anything else starting with `-` is an unknown option.
package struct ParsedArguments {
    /// The arguments that are not options, in order.
    package private(set) var plain: [String] = []
    /// The options' values, by option name (`--input`), in the order given.
    private var values: [String: [String]] = [:]
    /// The flags given.
    private var flags: Set<String> = []

    /// Splits `arguments` by the options of a command: `valueOptions` take a value,
    /// `flagOptions` take none.
    package init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                plain += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                plain.append(argument)
                continue
            }
            let name: String
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            if valueOptions.contains(name) {
                if value == nil {
                    guard index < arguments.count else {
                        throw UsageError("\(name) needs a value.")
                    }
                    value = arguments[index]
                    index += 1
                }
                values[name, default: []].append(value ?? "")
            } else if flagOptions.contains(name) {
                if value != nil {
                    throw UsageError("\(name) takes no value.")
                }
                flags.insert(name)
            } else {
                throw UsageError(Self.unknownOptionMessage(name, known: valueOptions.union(flagOptions)))
            }
        }
    }

    /// Whether `flag` was given.
    package func has(_ flag: String) -> Bool {
        flags.contains(flag)
    }

    /// Every value given for `option`, in order.
    package func all(_ option: String) -> [String] {
        values[option] ?? []
    }

    /// The value of an option given at most once.
    package func single(_ option: String) throws(UsageError) -> String? {
        let given = all(option)
        guard given.count <= 1 else {
            throw UsageError("\(option) was given \(given.count) times; give it once.")
        }
        return given.first
    }

    private static func unknownOptionMessage(_ name: String, known: Set<String>) -> String {
        var message = "Unknown option '\(name)'."
        if let nearest = NearestMatch.closeMatch(to: name, in: known.sorted()) {
            message += " Did you mean '\(nearest)'?"
        }
        return message
    }
}
