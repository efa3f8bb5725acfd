import Foundation
import RxSwift
import RxTestCore

/// When text output is coloured.
public enum ColorMode: String, CaseIterable, Sendable {
    /// Colours when stdout is a terminal and `NO_COLOR` is not set.
    case auto
    /// Always colours.
    case always
    /// Never colours.
    case never
}

/// What the tool needs to know about where it runs.
public struct ToolEnvironment: Sendable {
    /// Whether stdout is a terminal.
    public var stdoutIsTerminal: Bool
    /// The environment variables.
    public var variables: [String: String]

    /// An environment.
    public init(stdoutIsTerminal: Bool, variables: [String: String]) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.variables = variables
    }

    /// The process's own.
    public static var current: ToolEnvironment {
        ToolEnvironment(stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, variables: ProcessInfo.processInfo.environment)
    }

    /// The text style for `mode`: `auto` colours only on a terminal that can show
    /// colours (`TERM` is not `dumb`) and only while `NO_COLOR` is unset or empty
    /// (no-color.org).
    public func textStyle(_ mode: ColorMode) -> TextStyle {
        switch mode {
        case .always: return .ansi
        case .never: return .plain
        case .auto:
            let noColor = variables["NO_COLOR"].map { !$0.isEmpty } ?? false
            return stdoutIsTerminal && !noColor && !isDumbTerminal ? .ansi : .plain
        }
    }

    /// Whether `TERM` says the terminal shows neither colours nor more than ASCII.
    public var isDumbTerminal: Bool {
        variables["TERM"] == "dumb"
    }

    /// Whether box-drawing characters should give way to ASCII: on a dumb terminal, or
    /// where the locale names a character set other than UTF-8.
    public var prefersASCII: Bool {
        if isDumbTerminal { return true }
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { variables[$0] }.first { !$0.isEmpty }
        guard let locale, locale != "C", locale != "POSIX" else { return false }
        let upper = locale.uppercased()
        return !(upper.contains("UTF-8") || upper.contains("UTF8"))
    }
}

/// A failure with its exit status (sysexits.h): 65 for bad input data, 73 for a file
/// that cannot be written.
public struct ToolFailure: Error, Equatable, CustomStringConvertible {
    /// The message for stderr.
    public var message: String
    /// The exit status.
    public var code: Int32

    /// EX_DATAERR.
    public static let dataError: Int32 = 65
    /// EX_CANTCREAT.
    public static let cannotCreate: Int32 = 73

    /// A failure.
    public init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    public var description: String { message }
}

/// The version of Rivulet this tool belongs to (the release tag; see CHANGELOG.md).
public enum RivuletVersion {
    /// `6.10.2`: RxSwift 6.10's API. The major and minor numbers are those of the RxSwift
    /// API Rivulet provides, and the patch number is never lower than RxSwift's newest
    /// release of that API, so that every requirement written for RxSwift 6.10
    /// (`from: "6.10.0"` to `from: "6.10.2"`, `.upToNextMinor(from: "6.10.0")`) accepts it.
    public static let current = "6.10.2"
}

/// The `rxmarbles` command: the gallery, one operator's diagram, `--list`, pictures.
/// Its subcommands (``RxMarblesSubcommand``: `rxmarbles serve`, the playground's
/// command in RxMarblesServer, and `rxmarbles lanes`, ``LanesCommand``) are chosen by
/// the first argument, before this parses anything.
public struct RxMarblesCommand: Sendable {
    /// The operator to show; the whole gallery when `nil`.
    public var operatorName: String?
    /// Lists the operators.
    public var list = false
    /// Marble strings replacing the example's inputs.
    public var inputs: [String] = []
    /// Where to write the SVG picture of one operator.
    public var svgFile: String?
    /// Where to write the SVG pictures of every operator shown.
    public var svgDirectory: String?
    /// The DocC catalog to write the operator diagrams and their article into (for the
    /// project's own documentation; not in the help).
    public var doccCatalog: String?
    /// When to use colours.
    public var color: ColorMode = .auto
    /// Shows the inputs' subscriptions.
    public var subscriptions = false
    /// Prints the recorded events too.
    public var events = false
    /// Draws the box and headings in ASCII.
    public var ascii = false
    /// Prints the help instead.
    public var help = false
    /// Prints the version instead.
    public var version = false
    /// Prints the diagram as a ready test of this kind instead.
    public var testStyle: TestStyle?
    /// Operators to run one after another, each on the one before's output.
    public var chain: [String] = []
    /// Operators to run side by side on the same inputs.
    public var compare: [String] = []

    public init() {}

    /// The one-line usage, repeated under every usage error.
    public static let usage = "USAGE: rxmarbles [<operator> | --chain <op,op,...> | --compare <op,op,...>] [--input <marbles> ...] [--svg <file>] [--svg-dir <directory>] [--color <when>] [--subscriptions] [--events] [--test <kind>]"

    /// `rxmarbles --help`.
    public static let helpText = """
        rxmarbles: marble diagrams of Rivulet's operators, computed live on a TestScheduler.

        Each diagram runs the real operator on a TestScheduler: the inputs are testable
        observables (one tick per frame), the output is what a TestableObserver recorded.

        \(usage)
               rxmarbles --list
        \(subcommandUsages)
               rxmarbles --version

        ARGUMENTS:
          <operator>              The operator to show; the whole gallery when omitted.

        OPTIONS:
          --input <marbles>       A marble string replacing the next input of the example
                                  (repeat it for each input).
          --svg <file>            Also write the diagram as an SVG picture to this file.
          --svg-dir <directory>   Also write each diagram shown as <operator>.svg into this
                                  directory (created if needed).
          --color <when>          When to colour the text: auto (on a terminal, unless
                                  NO_COLOR is set), always, never.
          --subscriptions         Show under each input when it was subscribed to (^) and
                                  disposed (!).
          --events                Also print each stream's events in RxTest notation
                                  (virtual time = frame).
          --ascii                 Draw the operator's box in ASCII (the default where TERM
                                  is dumb or the locale is not UTF-8).
          --chain <op,op,...>     Run operators one after another, each on the output of
                                  the one before as it happened (--input goes to the
                                  first), and draw every stage under the one before:
                                  --chain filter,map.
          --compare <op,op,...>   Run operators side by side on the same inputs and mark
                                  where an output differs from the first's:
                                  --compare flatMap,concatMap,flatMapLatest.
          --test <kind>           Print the diagram as a ready test instead, for a package
                                  that uses Rivulet: xctest (an XCTestCase with the events
                                  as lists) or swift-testing (a @Test with marble text);
                                  with --chain, a test per stage; with --compare, a test
                                  per operator.
          --list                  List the operators, each with a one-line description.
          --version               Print the version.
          -h, --help              Show this help.

        SUBCOMMANDS (the first argument; each has its own options and --help):
        \(subcommandList)

        MARBLES (for --input): one character per frame; '-' nothing happens, any other
        single character is an element with that key, '|' completes, '#' fails, '(ab)'
        groups events at one frame, '^' marks where a hot input is subscribed.
        Every line printed is marble text too, inputs as typed: a value longer than one
        character is written with a letter that the line under the output explains
        (a = 10), and a frame holding a group is padded with spaces, which marbles ignore.

        EXAMPLES:
          rxmarbles
          rxmarbles --list
          rxmarbles take
          rxmarbles combineLatest --input "-1--2---3|" --input "--a--b|"
          rxmarbles map --svg map.svg
          rxmarbles --chain filter,map,debounce --input "-1-2-3-4-5-6|"
          rxmarbles --compare flatMap,concatMap,flatMapLatest
          rxmarbles scan --input "-1-2-3|" --test swift-testing > Tests/AppTests/ScanTests.swift
          rxmarbles --svg-dir diagrams
          rxmarbles serve --port 8080    (the playground in a browser; see rxmarbles serve --help)
          rxmarbles lanes sign-in.lanes  (a recording of recordLane; see rxmarbles lanes --help)

        EXIT STATUS: 0 done; 64 usage error (unknown operator, wrong number of inputs...);
        65 malformed marble text or a value the example cannot take; 73 a file or
        directory that cannot be written.

        """

    /// The usage line of each subcommand, under the root command's.
    private static var subcommandUsages: String {
        RxMarblesSubcommand.allCases.map { "       " + $0.synopsis }.joined(separator: "\n")
    }

    /// Each subcommand with its abstract, in the columns of the options.
    private static var subcommandList: String {
        RxMarblesSubcommand.allCases.map { subcommand in
            "  " + subcommand.name.padding(toLength: 22, withPad: " ", startingAt: 0) + "  " + subcommand.abstract
        }.joined(separator: "\n")
    }

    private static let valueOptions: Set<String> = ["--input", "--svg", "--svg-dir", "--docc", "--color", "--test", "--chain", "--compare"]
    private static let flagOptions: Set<String> = ["--list", "--subscriptions", "--events", "--ascii", "--help", "-h", "--version"]

    /// The command that `arguments` (those after the program's name) ask for, validated.
    public static func parse(_ arguments: [String]) throws(UsageError) -> RxMarblesCommand {
        let parsed = try ParsedArguments(arguments, valueOptions: valueOptions, flagOptions: flagOptions)
        var command = RxMarblesCommand()
        command.help = parsed.has("--help") || parsed.has("-h")
        command.version = parsed.has("--version")
        if command.help || command.version { return command }
        guard parsed.plain.count <= 1 else {
            throw UsageError("One operator at a time: got \(parsed.plain.map { "'\($0)'" }.joined(separator: ", ")). Marble text goes after --input.")
        }
        command.operatorName = parsed.plain.first
        command.list = parsed.has("--list")
        command.inputs = parsed.all("--input")
        command.svgFile = try parsed.single("--svg")
        command.svgDirectory = try parsed.single("--svg-dir")
        command.doccCatalog = try parsed.single("--docc")
        if let color = try parsed.single("--color") {
            guard let mode = ColorMode(rawValue: color) else {
                throw UsageError("--color takes auto, always or never, not '\(color)'.")
            }
            command.color = mode
        }
        if let test = try parsed.single("--test") {
            guard let style = TestStyle(rawValue: test) else {
                throw UsageError("--test takes xctest or swift-testing, not '\(test)'.")
            }
            command.testStyle = style
        }
        for (option, keyPath) in [("--chain", \RxMarblesCommand.chain), ("--compare", \RxMarblesCommand.compare)] {
            if let list = try parsed.single(option) {
                command[keyPath: keyPath] = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        command.subscriptions = parsed.has("--subscriptions")
        command.events = parsed.has("--events")
        command.ascii = parsed.has("--ascii")
        try command.validate()
        return command
    }

    /// Checks that the options go together.
    public func validate() throws(UsageError) {
        if help || version { return }
        if doccCatalog != nil, operatorName != nil || list || !inputs.isEmpty || svgFile != nil || svgDirectory != nil {
            throw UsageError("--docc writes the diagrams of the whole gallery: it takes no operator and no other options.")
        }
        if list {
            if operatorName != nil || !inputs.isEmpty || svgFile != nil || svgDirectory != nil || events || subscriptions || !chain.isEmpty || !compare.isEmpty {
                throw UsageError("--list takes no operator and no other options.")
            }
            return
        }
        if !chain.isEmpty || !compare.isEmpty {
            if operatorName != nil || !chain.isEmpty && !compare.isEmpty || list || svgDirectory != nil {
                throw UsageError("--chain and --compare draw one diagram of their own: no other operator, not both, and no --list or --svg-dir.")
            }
            let names = chain.isEmpty ? compare : chain
            if !Gallery.combinationSize.contains(names.count) {
                throw UsageError("\(chain.isEmpty ? "--compare" : "--chain") takes \(Gallery.combinationSize.lowerBound) to \(Gallery.combinationSize.upperBound) operators separated by commas, got \(names.count).")
            }
            for name in names where Gallery.entry(named: name) == nil {
                throw UsageError(NearestMatch.unknownOperatorMessage(name, known: Gallery.names))
            }
        } else if let operatorName {
            if let subcommand = RxMarblesSubcommand(rawValue: operatorName) {
                throw UsageError("\(subcommand.name) is a subcommand, not an operator: give it first, as in \(subcommand.synopsis).")
            }
            if Gallery.entry(named: operatorName) == nil {
                throw UsageError(NearestMatch.unknownOperatorMessage(operatorName, known: Gallery.names))
            }
        } else {
            if !inputs.isEmpty {
                throw UsageError("--input replaces the inputs of one example: name the operator first, e.g. rxmarbles combineLatest --input \"-1--2|\" --input \"--a-b|\".")
            }
            if svgFile != nil {
                throw UsageError("--svg writes one diagram: name the operator (e.g. rxmarbles map --svg map.svg), or use --svg-dir for the whole gallery.")
            }
        }
        if testStyle != nil, operatorName == nil && compare.isEmpty && chain.isEmpty || list || svgFile != nil || svgDirectory != nil || events {
            throw UsageError("--test writes one operator's diagram as a test: name the operator (e.g. rxmarbles map --test xctest), with --input if you like, and no other output options.")
        }
        if let empty = inputs.firstIndex(where: \.isEmpty) {
            throw UsageError("--input \(empty + 1) is empty: give its marbles, e.g. --input \"-1-2|\" (a source that never emits is \"-\", one that only completes \"|\").")
        }
        for (option, path) in [("--svg", svgFile), ("--svg-dir", svgDirectory)] where path?.isEmpty == true {
            throw UsageError("\(option) is empty: name the \(option == "--svg" ? "file" : "directory") to write.")
        }
    }

    /// Parses `arguments` (those after the program's name), runs the command and exits:
    /// 0 when done, 64 on a usage error, 65 or 73 on a `ToolFailure`.
    public static func main(_ arguments: [String]) -> Never {
        run(message: message(for:)) {
            try parse(arguments).execute(environment: .current, write: $0)
        }
    }

    /// Runs `body` with a writer to stdout and exits: 0 when it returns, else the status
    /// of what it threw (``exitStatus(for:)``), after writing `message` of it to stderr.
    /// The main of the root command and of each subcommand.
    static func run(message: (any Error) -> String, _ body: (_ write: (String) -> Void) throws -> Void) -> Never {
        do {
            try body { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data((message(error) + "\n").utf8))
            exit(exitStatus(for: error))
        }
    }

    /// The exit status for an error `parse` or `execute` threw.
    public static func exitStatus(for error: any Error) -> Int32 {
        switch error {
        case let failure as ToolFailure: return failure.code
        case is UsageError: return UsageError.code
        default: return 1
        }
    }

    /// What stderr says for an error `parse` or `execute` threw: usage errors are
    /// followed by the usage line.
    public static func message(for error: any Error) -> String {
        switch error {
        case let failure as ToolFailure: return "Error: \(failure.message)"
        case let usage as UsageError: return "Error: \(usage.message)\n\(Self.usage)\nSee 'rxmarbles --help'."
        default: return "Error: \(error)"
        }
    }

    /// Does the work: writes text through `write`, pictures to files. Throws
    /// `UsageError` for usage errors and `ToolFailure` for bad data or files.
    public func execute(environment: ToolEnvironment, write: (String) -> Void) throws {
        if help {
            write(Self.helpText)
            return
        }
        if version {
            write("rxmarbles \(RivuletVersion.current)\n")
            return
        }
        try checkPictureDestinations()
        let renderer = TextRenderer(style: environment.textStyle(color), showSubscriptions: subscriptions, asciiOnly: ascii || environment.prefersASCII)
        if list {
            write(listing())
            return
        }
        if let doccCatalog {
            let catalog = URL(fileURLWithPath: doccCatalog, isDirectory: true)
            let files = OperatorDocs.files()
            for file in files {
                let url = catalog.appendingPathComponent(file.path)
                try makeDirectory(url.deletingLastPathComponent(), named: url.deletingLastPathComponent().path)
                try writeFile(file.contents, to: url)
            }
            let pictures = files.filter { $0.path.hasSuffix(".svg") }.count
            let pages = files.filter { $0.path.hasPrefix("Operators/") }.count
            write("Wrote \(pictures) operator diagrams, \(pages) additions to the operators' own pages and \(OperatorDocs.articleFile) into \(doccCatalog).\n")
            return
        }
        let diagrams: [OperatorDiagram]
        if let testStyle, !compare.isEmpty || !chain.isEmpty {
            let runs = try combination { chain.isEmpty ? try Gallery.comparedRuns(compare, inputs: $0) : try Gallery.chainedRuns(chain, inputs: $0) }
            let writer = TestWriter(style: testStyle)
            do {
                write(chain.isEmpty ? try writer.write(comparing: runs) : try writer.write(chaining: runs))
            } catch {
                throw ToolFailure("cannot write the \(chain.isEmpty ? "comparison" : "chain") as a test: \(error.description).", code: ToolFailure.dataError)
            }
            return
        }
        if !chain.isEmpty || !compare.isEmpty {
            diagrams = [try combination { chain.isEmpty ? try Gallery.compare(compare, inputs: $0) : try Gallery.chain(chain, inputs: $0) }]
            write(renderer.render(diagrams[0]))
            if events { write(EventListing.text(of: diagrams[0])) }
        } else if let operatorName {
            guard let entry = Gallery.entry(named: operatorName) else {
                throw UsageError(NearestMatch.unknownOperatorMessage(operatorName, known: Gallery.names))
            }
            diagrams = [try diagram(for: entry)]
            if let testStyle {
                do {
                    write(try TestWriter(style: testStyle).write(diagrams[0], entry: entry))
                } catch {
                    throw ToolFailure("cannot write \(entry.name) as a test: \(error.description).", code: ToolFailure.dataError)
                }
                return
            }
            write(renderer.render(diagrams[0]))
            if events { write(EventListing.text(of: diagrams[0])) }
        } else {
            write(galleryText(renderer: renderer, showEvents: events))
            diagrams = Gallery.entries.map { $0.diagram() }
        }
        let svg = SVGRenderer(showSubscriptions: subscriptions)
        if let svgFile {
            try writeFile(svg.render(diagrams[0]), to: URL(fileURLWithPath: svgFile))
        }
        if let svgDirectory {
            let directory = URL(fileURLWithPath: svgDirectory, isDirectory: true)
            try makeDirectory(directory, named: svgDirectory)
            for diagram in diagrams {
                try writeFile(svg.render(diagram), to: directory.appendingPathComponent(Self.fileName(for: diagram.name)))
            }
        }
    }

    /// The diagram of `entry`, with the user's inputs if any.
    func diagram(for entry: GalleryEntry) throws -> OperatorDiagram {
        guard let parsed = try parsedInputs() else { return entry.diagram() }
        do {
            return try entry.diagram(inputs: parsed)
        } catch let error as GalleryInputError {
            if error.isUsageError { throw UsageError(error.description) }
            var message = error.description
            if case let .valueNotAccepted(_, input, _, _, _, position, _) = error, input >= 1, input <= inputs.count {
                message += Self.pointer(at: position, in: inputs[input - 1])
            }
            throw ToolFailure(message, code: ToolFailure.dataError)
        }
    }

    /// What `make` makes of the user's inputs (`nil` without any), its refusals turned
    /// into the command's errors.
    func combination<Result>(_ make: ([MarbleInput]?) throws -> Result) throws -> Result {
        let parsed = try parsedInputs()
        do {
            return try make(parsed)
        } catch let error as CombinationError {
            if error.isUsageError { throw UsageError(error.description) }
            throw ToolFailure(error.description, code: ToolFailure.dataError)
        } catch let error as GalleryInputError {
            if error.isUsageError { throw UsageError(error.description) }
            throw ToolFailure(error.description, code: ToolFailure.dataError)
        }
    }

    /// The `--input` texts parsed; `nil` without any.
    func parsedInputs() throws -> [MarbleInput]? {
        guard !inputs.isEmpty else { return nil }
        var parsed: [MarbleInput] = []
        for (index, text) in inputs.enumerated() {
            do {
                parsed.append(try MarbleInputParser.parse(text))
            } catch {
                throw ToolFailure("--input \(index + 1): \(error.description)" + Self.pointer(at: error.position, in: text), code: ToolFailure.dataError)
            }
        }
        return parsed
    }

    /// The marble text on a line of its own with a caret under `position`.
    static func pointer(at position: Int?, in text: String) -> String {
        guard let position else { return "" }
        return "\n  " + text + "\n  " + String(repeating: " ", count: position) + "^"
    }

    /// `--list`: one line per operator, name and summary.
    public func listing() -> String {
        let entries = Gallery.entries
        let width = entries.map(\.name.count).max() ?? 0
        return entries.map { entry in
            entry.name + String(repeating: " ", count: width - entry.name.count + 2) + entry.summary
        }.joined(separator: "\n") + "\n"
    }

    /// The whole gallery as text, family by family.
    public func galleryText(renderer: TextRenderer, showEvents: Bool = false) -> String {
        var text = "Rivulet marble gallery: every diagram below ran the real operator on a TestScheduler just now.\n"
        text += "rxmarbles <operator> shows one, rxmarbles --list lists them, --input replaces an example's inputs.\n"
        let entries = Gallery.entries
        for family in GalleryFamily.allCases {
            let members = entries.filter { $0.family == family }
            guard !members.isEmpty else { continue }
            text += "\n" + renderer.sectionHeading(family.rawValue) + "\n"
            for entry in members {
                let diagram = entry.diagram()
                text += "\n" + renderer.render(diagram)
                if showEvents { text += EventListing.text(of: diagram) }
            }
        }
        return text
    }

    /// The file name of an operator's picture.
    public static func fileName(for name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }) + ".svg"
    }

    /// Refuses, before anything is drawn, the picture files that cannot be written: a
    /// `--svg` that names a directory or lies in a missing one, a `--svg-dir` that
    /// names a file.
    func checkPictureDestinations() throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if let svgFile {
            if files.fileExists(atPath: svgFile, isDirectory: &isDirectory), isDirectory.boolValue {
                let example = URL(fileURLWithPath: svgFile).appendingPathComponent(Self.fileName(for: operatorName ?? "map")).path
                throw ToolFailure("--svg writes one file, and \(svgFile) is a directory: name a file in it (--svg \(example)), or use --svg-dir \(svgFile) for every diagram shown.", code: ToolFailure.cannotCreate)
            }
            let folder = URL(fileURLWithPath: svgFile).deletingLastPathComponent().path
            if !files.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory.boolValue {
                throw ToolFailure("cannot write \(svgFile): the directory \(folder) does not exist.", code: ToolFailure.cannotCreate)
            }
        }
        if let svgDirectory, files.fileExists(atPath: svgDirectory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ToolFailure("--svg-dir needs a directory, and \(svgDirectory) is a file.", code: ToolFailure.cannotCreate)
        }
    }

    private func makeDirectory(_ url: URL, named name: String) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ToolFailure("cannot create directory \(name): \(Self.reason(error))", code: ToolFailure.cannotCreate)
        }
    }

    private func writeFile(_ text: String, to url: URL) throws {
        do {
            try Data(text.utf8).write(to: url)
        } catch {
            throw ToolFailure("cannot write \(url.path): \(Self.reason(error))", code: ToolFailure.cannotCreate)
        }
    }

    /// A file error in plain words: the system's own reason (`Permission denied`) when
    /// the error carries one.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        return nsError.localizedFailureReason ?? nsError.localizedDescription
    }
}

extension TextRenderer {
    /// A family heading of the gallery.
    public func sectionHeading(_ title: String) -> String {
        let horizontal = boxCharacters.horizontal
        let line = horizontal + horizontal + " " + title + " " + String(repeating: horizontal, count: max(4, 60 - title.count))
        return style == .ansi ? "\u{1B}[1;34m" + line + "\u{1B}[0m" : line
    }
}
