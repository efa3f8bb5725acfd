import Foundation
import RxLanes

/// `rxmarbles lanes FILE`: draws a lanes recording (the file a `LaneRecorder`'s
/// snapshot was saved to) as text, as an SVG picture or as an HTML page, on stdout.
public struct LanesCommand: Sendable {
    /// What the recording is drawn as.
    public enum Output: String, Sendable {
        /// Text for the terminal.
        case text
        /// An SVG picture.
        case svg
        /// A self-contained HTML page: the picture, the legend and every entry.
        case html
        /// A `TestScheduler` test written from the recording (`LaneTestWriter`).
        case test
    }

    /// The recording's file; `-` reads stdin.
    public var file = ""
    /// What to draw.
    public var output = Output.text
    /// Text in ASCII only.
    public var ascii = false
    /// When to colour the text.
    public var color: ColorMode = .auto
    /// Prints the help instead.
    public var help = false
    /// With `--test`: the kind of test.
    public var testStyle = TestStyle.xctest
    /// With `--test`: the lanes replayed as hot inputs.
    public var inputs: [String] = []
    /// With `--test`: the lane the test expects.
    public var outputLane = ""
    /// With `--test`: modules the test imports for the pipeline.
    public var imports: [String] = []

    public init() {}

    /// The one-line usage.
    public static let usage = "USAGE: " + RxMarblesSubcommand.lanes.synopsis

    /// `rxmarbles lanes --help`.
    public static let helpText = """
        rxmarbles lanes: draws a lanes recording, what the recordLane operators of a
        running program saw, on one time axis.

        \(usage)

        ARGUMENTS:
          <file>                  The recording: a LaneRecorder's snapshot saved with
                                  fileText (- reads stdin).

        OPTIONS:
          --svg                   Print an SVG picture instead of text.
          --html                  Print a self-contained HTML page instead: the picture,
                                  the legend and a table of every event.
          --ascii                 Draw the text in ASCII only (the default where TERM is
                                  dumb or the locale is not UTF-8).
          --color <when>          When to colour the text: auto (on a terminal, unless
                                  NO_COLOR is set), always, never.
          --test <kind>           Print a TestScheduler test instead: xctest or
                                  swift-testing. The input lanes become hot observables
                                  at their recorded times, quantized to ticks; the
                                  output lane becomes the expectation; a marked line is
                                  where the pipeline under test goes.
          --inputs <lanes>        With --test: the input lanes, comma-separated.
          --output <lane>         With --test: the output lane.
          --import <modules>      With --test: modules the pipeline needs,
                                  comma-separated (your app's).
          -h, --help              Show this help.

        THE DRAWING: a line per subscription of each lane (email, email #2...), all on
        one time axis whose column length (1 µs to 10 s) is chosen to fit the recording.
        ^ subscribed, then its values, then its end: | completed, # failed, ! disposed;
        nothing before the subscription or after the end. Events of one column are
        grouped, as in (ab). A value longer than one character is drawn as a letter that
        the legend explains. ≈ marks an idle stretch left out; the time line under the
        lanes gives its length. < starts a subscription that began before the oldest
        event kept, when a lane's ring dropped older events. When events arrived on
        several threads, a line under each lane gives each event's thread by number.

        EXAMPLES:
          rxmarbles lanes sign-in.lanes
          rxmarbles lanes sign-in.lanes --svg > sign-in.svg
          rxmarbles lanes sign-in.lanes --html > sign-in.html
          rxmarbles lanes sign-in.lanes --test xctest --inputs email,password \\
              --output signInButtonEnabled --import MyApp > SignInRecordingTests.swift
          rxmarbles serve --lanes sign-in.lanes    (the recording in the playground)

        EXIT STATUS: 0 drawn (an empty recording draws an empty diagram); 64 usage
        error; 65 a file that is not a lanes recording, or one cut short: the message
        names the line; 66 a file that cannot be read.

        """

    /// The options that take a value, and the flags.
    static let valueOptions: Set<String> = ["--color", "--test", "--inputs", "--output", "--import"]
    static let flagOptions: Set<String> = ["--svg", "--html", "--ascii", "--help", "-h"]

    /// The command that `arguments` (those after `lanes`) ask for, validated.
    public static func parse(_ arguments: [String]) throws(UsageError) -> LanesCommand {
        let parsed = try ParsedArguments(arguments, valueOptions: valueOptions, flagOptions: flagOptions)
        var command = LanesCommand()
        if parsed.has("--help") || parsed.has("-h") {
            command.help = true
            return command
        }
        guard let file = parsed.plain.first else {
            throw UsageError("lanes needs the recording's file, e.g. rxmarbles lanes sign-in.lanes.")
        }
        guard parsed.plain.count == 1 else {
            throw UsageError("lanes draws one recording at a time: got \(parsed.plain.map { "'\($0)'" }.joined(separator: ", ")).")
        }
        command.file = file
        if parsed.has("--svg"), parsed.has("--html") {
            throw UsageError("--svg and --html each print the whole drawing: give one of them.")
        }
        command.output = parsed.has("--svg") ? .svg : parsed.has("--html") ? .html : .text
        if let style = try parsed.single("--test") {
            guard command.output == .text else {
                throw UsageError("--test prints a test, not a drawing: leave out --\(command.output.rawValue).")
            }
            guard let testStyle = TestStyle(rawValue: style) else {
                throw UsageError("--test takes xctest or swift-testing, not '\(style)'.")
            }
            guard let output = try parsed.single("--output"), !output.isEmpty else {
                throw UsageError("--test needs the output lane: --output NAME.")
            }
            command.output = .test
            command.testStyle = testStyle
            command.outputLane = output
            command.inputs = try parsed.single("--inputs").map { $0.split(separator: ",").map(String.init) } ?? []
            command.imports = try parsed.single("--import").map { $0.split(separator: ",").map(String.init) } ?? []
        } else if !(parsed.all("--inputs") + parsed.all("--output") + parsed.all("--import")).isEmpty {
            throw UsageError("--inputs, --output and --import go with --test.")
        }
        command.ascii = parsed.has("--ascii")
        if let color = try parsed.single("--color") {
            guard let mode = ColorMode(rawValue: color) else {
                throw UsageError("--color takes auto, always or never, not '\(color)'.")
            }
            command.color = mode
        }
        if command.output != .text, command.ascii || command.color != .auto {
            throw UsageError("--ascii and --color are for the text drawing, not for --\(command.output.rawValue).")
        }
        return command
    }

    /// The recording in `text`, read from the file named `name`.
    ///
    /// - Throws: `ToolFailure` (exit status 65) naming the file, the line and what is
    ///   wrong there.
    public static func recording(fromText text: String, named name: String) throws -> LaneRecording {
        do {
            return try LaneRecording(fileText: text)
        } catch let error as LaneFileError {
            throw ToolFailure("\(name): \(error.description)", code: ToolFailure.dataError)
        }
    }

    /// The recording in the file at `path` (`-`: stdin).
    ///
    /// - Throws: `ToolFailure`: 66 when it cannot be read, 65 when it is not UTF-8 text
    ///   or not a lanes recording.
    public static func readRecording(at path: String) throws -> LaneRecording {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ToolFailure("\(path): cannot be read: there is no such file.", code: ToolFailure.noInput)
            }
            if isDirectory.boolValue {
                throw ToolFailure("\(path): cannot be read: it is a directory, not a recording.", code: ToolFailure.noInput)
            }
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                var reason = RxMarblesCommand.reason(error)
                while reason.hasSuffix(".") { reason.removeLast() }
                throw ToolFailure("\(path): cannot be read: \(reason).", code: ToolFailure.noInput)
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ToolFailure("\(path): not a lanes recording: it is not UTF-8 text.", code: ToolFailure.dataError)
        }
        return try recording(fromText: text, named: path == "-" ? "stdin" : path)
    }

    /// Reads the recording and writes its drawing through `write`. Throws
    /// `ToolFailure` for a file that cannot be read or is not a recording.
    public func execute(environment: ToolEnvironment, write: (String) -> Void) throws {
        if help {
            write(Self.helpText)
            return
        }
        let recording = try Self.readRecording(at: file)
        let diagram = LaneDiagram(recording)
        switch output {
        case .text:
            let renderer = LaneTextRenderer(style: environment.textStyle(color), asciiOnly: ascii || environment.prefersASCII)
            write(renderer.render(diagram))
        case .svg:
            write(LaneSVGRenderer().render(diagram))
        case .html:
            write(LaneHTMLPage.render(diagram, title: file == "-" ? "stdin" : (file as NSString).lastPathComponent))
        case .test:
            let name = file == "-" ? nil : (file as NSString).lastPathComponent
            do {
                write(try LaneTestWriter(style: testStyle).write(recording, inputs: inputs, output: outputLane, file: name, imports: imports))
            } catch {
                throw ToolFailure("\(file): cannot be written as a test: \(error.description)", code: ToolFailure.dataError)
            }
        }
    }

    /// What stderr says for an error `parse` or `execute` threw.
    public static func message(for error: any Error) -> String {
        switch error {
        case let usage as UsageError: return "Error: \(usage.message)\n\(Self.usage)\nSee 'rxmarbles lanes --help'."
        case let failure as ToolFailure: return "rxmarbles lanes: \(failure.message)"
        default: return "rxmarbles lanes: \(error)"
        }
    }

    /// Parses `arguments` (those after `lanes`), draws and exits: 0 when drawn, 64 on a
    /// usage error, 65 or 66 when the file is not a recording or cannot be read.
    public static func main(_ arguments: [String]) -> Never {
        RxMarblesCommand.run(message: message(for:)) {
            try parse(arguments).execute(environment: .current, write: $0)
        }
    }
}

extension ToolFailure {
    /// EX_NOINPUT: an input file that does not exist or cannot be read.
    public static let noInput: Int32 = 66
}
