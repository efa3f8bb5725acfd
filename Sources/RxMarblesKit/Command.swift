import ArgumentParser
import Foundation
import RxSwift
import RxTestCore

/// When text output is coloured.
public enum ColorMode: String, CaseIterable, ExpressibleByArgument, Sendable {
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

    /// The text style for `mode`: `auto` colours only on a terminal and only while
    /// `NO_COLOR` is unset or empty (no-color.org).
    public func textStyle(_ mode: ColorMode) -> TextStyle {
        switch mode {
        case .always: return .ansi
        case .never: return .plain
        case .auto:
            let noColor = variables["NO_COLOR"].map { !$0.isEmpty } ?? false
            return stdoutIsTerminal && !noColor ? .ansi : .plain
        }
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

/// The `rxmarbles` command.
public struct RxMarblesCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rxmarbles",
        abstract: "Marble diagrams of Rivulet's operators, computed live on a TestScheduler.",
        discussion: """
        Without arguments, shows the whole gallery. Each diagram runs the real operator on a \
        TestScheduler: the inputs are testable observables (one tick per frame), the output is \
        what a TestableObserver recorded.

        Marble syntax for --input: one character per frame; '-' nothing happens, any other \
        single character is an element with that key, '|' completes, '#' fails, '(ab)' groups \
        events at one frame.

        Examples:
          rxmarbles
          rxmarbles --list
          rxmarbles take
          rxmarbles combineLatest --input "-1--2---3|" --input "--a--b|"
          rxmarbles map --svg map.svg
          rxmarbles --svg-dir diagrams
          rxmarbles --docc Sources/RxSwift/RxSwift.docc
          rxmarbles serve --port 8080    (the playground in a browser; see rxmarbles serve --help)

        Exit status: 0 done; 64 usage error (unknown operator, wrong number of inputs...); \
        65 malformed marble text or a value the example cannot take; 73 a file or directory \
        that cannot be written.
        """
    )

    /// The operator to show.
    @Argument(help: ArgumentHelp("The operator to show; the whole gallery when omitted.", valueName: "operator"))
    public var operatorName: String?

    /// Lists the operators.
    @Flag(name: .long, help: "List the operators, each with a one-line description.")
    public var list = false

    /// Marble strings replacing the example's inputs.
    @Option(name: .customLong("input"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A marble string replacing the next input of the example (repeat it for each input).", valueName: "marbles"))
    public var inputs: [String] = []

    /// Where to write the SVG picture of one operator.
    @Option(name: .customLong("svg"), help: ArgumentHelp("Also write the diagram as an SVG picture to this file.", valueName: "file"))
    public var svgFile: String?

    /// Where to write the SVG pictures of every operator shown.
    @Option(name: .customLong("svg-dir"), help: ArgumentHelp("Also write each diagram shown as <operator>.svg into this directory (created if needed).", valueName: "directory"))
    public var svgDirectory: String?

    /// The DocC catalog to write the operator diagrams and their article into.
    @Option(name: .customLong("docc"), help: ArgumentHelp("Write every operator's diagram into the catalog's Resources, and the article showing them (\(OperatorDocs.articleFile)); e.g. --docc \(OperatorDocs.catalogPath).", valueName: "catalog"))
    public var doccCatalog: String?

    /// When to use colours.
    @Option(name: .long, help: "When to colour the text: auto (on a terminal, unless NO_COLOR is set), always, never.")
    public var color: ColorMode = .auto

    /// Shows the inputs' subscriptions.
    @Flag(name: .long, help: "Show under each input when it was subscribed to (^) and disposed (!).")
    public var subscriptions = false

    /// Prints the recorded events too.
    @Flag(name: .long, help: "Also print each stream's events in RxTest notation (virtual time = frame).")
    public var events = false

    public init() {}

    public func validate() throws {
        if doccCatalog != nil, operatorName != nil || list || !inputs.isEmpty || svgFile != nil || svgDirectory != nil {
            throw ValidationError("--docc writes the diagrams of the whole gallery: it takes no operator and no other options.")
        }
        if list {
            if operatorName != nil || !inputs.isEmpty || svgFile != nil || svgDirectory != nil || events || subscriptions {
                throw ValidationError("--list takes no operator and no other options.")
            }
            return
        }
        if let operatorName {
            if Gallery.entry(named: operatorName) == nil {
                throw ValidationError(NearestMatch.unknownOperatorMessage(operatorName, known: Gallery.names))
            }
        } else {
            if !inputs.isEmpty {
                throw ValidationError("--input replaces the inputs of one example: name the operator first, e.g. rxmarbles combineLatest --input \"-1--2|\" --input \"--a-b|\".")
            }
            if svgFile != nil {
                throw ValidationError("--svg writes one diagram: name the operator (e.g. rxmarbles map --svg map.svg), or use --svg-dir for the whole gallery.")
            }
        }
    }

    public func run() throws {
        do {
            try execute(environment: .current) { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } catch let failure as ToolFailure {
            FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
            throw ExitCode(failure.code)
        }
    }

    /// Does the work: writes text through `write`, pictures to files. Throws
    /// `ValidationError` for usage errors and `ToolFailure` for bad data or files.
    public func execute(environment: ToolEnvironment, write: (String) -> Void) throws {
        let renderer = TextRenderer(style: environment.textStyle(color), showSubscriptions: subscriptions)
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
        if let operatorName {
            guard let entry = Gallery.entry(named: operatorName) else {
                throw ValidationError(NearestMatch.unknownOperatorMessage(operatorName, known: Gallery.names))
            }
            diagrams = [try diagram(for: entry)]
            write(renderer.render(diagrams[0]))
            if events { write(eventListing(diagrams[0])) }
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
        guard !inputs.isEmpty else { return entry.diagram() }
        var parsed: [MarbleInput] = []
        for (index, text) in inputs.enumerated() {
            do {
                parsed.append(try MarbleInputParser.parse(text))
            } catch {
                throw ToolFailure("--input \(index + 1): \(error.description)" + Self.pointer(at: error.position, in: text), code: ToolFailure.dataError)
            }
        }
        do {
            return try entry.diagram(inputs: parsed)
        } catch let error as GalleryInputError {
            if error.isUsageError { throw ValidationError(error.description) }
            var message = error.description
            if case let .valueNotAccepted(_, input, _, _, _, position, _) = error, input >= 1, input <= inputs.count {
                message += Self.pointer(at: position, in: inputs[input - 1])
            }
            throw ToolFailure(message, code: ToolFailure.dataError)
        }
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
                if showEvents { text += eventListing(diagram) }
            }
        }
        return text
    }

    /// Each stream's events in RxTest notation: `.next(3, "1a")`.
    public func eventListing(_ diagram: OperatorDiagram) -> String {
        var lines: [String] = []
        for timeline in diagram.timelines {
            let name = timeline.name.isEmpty ? "output" : timeline.name
            let events = timeline.events.map { event -> String in
                switch event.kind {
                case .next(let label): return ".next(\(event.frame), \(Int(label) != nil ? label : "\"\(label)\""))"
                case .completed: return ".completed(\(event.frame))"
                case .error(let message): return ".error(\(event.frame), \(message))"
                }
            }
            lines.append("  \(name): [" + events.joined(separator: ", ") + "]")
            if !timeline.name.isEmpty {
                let spans = timeline.subscriptions.map { span in
                    span.end.map { "Subscription(\(span.start), \($0))" } ?? "Subscription(\(span.start))"
                }
                lines.append("  \(name).subscriptions: [" + spans.joined(separator: ", ") + "]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The file name of an operator's picture.
    public static func fileName(for name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }) + ".svg"
    }

    private func makeDirectory(_ url: URL, named name: String) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ToolFailure("cannot create directory \(name): \(error.localizedDescription)", code: ToolFailure.cannotCreate)
        }
    }

    private func writeFile(_ text: String, to url: URL) throws {
        do {
            try Data(text.utf8).write(to: url)
        } catch {
            throw ToolFailure("cannot write \(url.path): \(error.localizedDescription)", code: ToolFailure.cannotCreate)
        }
    }
}

extension TextRenderer {
    /// A family heading of the gallery.
    public func sectionHeading(_ title: String) -> String {
        let line = "── " + title + " " + String(repeating: "─", count: max(4, 60 - title.count))
        return style == .ansi ? "\u{1B}[1;34m" + line + "\u{1B}[0m" : line
    }
}
