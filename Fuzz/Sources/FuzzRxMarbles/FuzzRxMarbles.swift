import Foundation
import FuzzerDriver
import RxMarblesKit
import RxSwift
import RxTestCore

// libFuzzer target for the rxmarbles tool: its command-line handling and the marble
// inputs it runs through the gallery and both renderers.
//
// Input: the first byte chooses the mode and options, the rest is UTF-8 text.
// - Command mode (even first byte): the text split at NUL bytes is the argument list of
//   `rxmarbles`, parsed by `RxMarblesCommand.parse` and executed in-process with the
//   output counted. Arguments that write into directories (`--svg-dir`) are dropped and
//   `--svg` always writes to /dev/null, so a run leaves nothing behind.
// - Input mode (odd first byte): the second byte picks a gallery operator, the text's lines
//   are marble strings for its inputs. Each goes through `MarbleInputParser.parse` (the
//   tool's own `--input` path) and, as well, straight through `Marbles.parseTimeline`, so
//   the gallery and the renderers see arbitrary event layouts.
// A thrown error is a valid outcome; a trap, a sanitizer report or a broken invariant
// (`check`) is a finding.
//
// With FUZZ_SCOPE=parsers only Rivulet's own parsing runs, for long runs: command mode
// parses the argument list (the tool's own parser, `RxMarblesCommand.parse`), the
// unknown-operator message, the SVG file name and each --input through
// `MarbleInputParser`; input mode parses the lines without running the gallery.

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())")
    }
}

/// FUZZ_SCOPE=parsers: parsing only (read once, at start).
let parsersOnly = ProcessInfo.processInfo.environment["FUZZ_SCOPE"] == "parsers"

/// The largest number of frames an input of input mode spans: text and SVG output grow
/// with the frames drawn, by design.
let frameLimit = 2_000

let galleryNames = Gallery.names

func sanitizedArguments(_ raw: [String], svgToDevNull: Bool) -> [String] {
    var arguments: [String] = []
    var index = 0
    while index < raw.count {
        let argument = raw[index]
        if argument == "--svg" || argument == "--svg-dir" {
            index += 2
            continue
        }
        if argument.hasPrefix("--svg") {
            index += 1
            continue
        }
        arguments.append(argument)
        index += 1
    }
    if svgToDevNull {
        arguments += ["--svg", "/dev/null"]
    }
    return arguments
}

/// `MarbleInputParser` on one `--input` value: a thrown error is fine, a parsed input
/// must be consistent.
func checkInput(_ text: String) {
    guard let input = try? MarbleInputParser.parse(text) else { return }
    check(input.positions.count == input.events.count, "--input \(text.debugDescription): \(input.events.count) events, \(input.positions.count) positions")
    check(zip(input.events, input.events.dropFirst()).allSatisfy { $0.time <= $1.time }, "--input \(text.debugDescription): times go back")
}

/// FUZZ_SCOPE=parsers, command mode: the tool's parsing and validation of `arguments`,
/// then each --input through `MarbleInputParser`.
func fuzzCommandHandling(_ arguments: [String]) {
    do {
        let command = try RxMarblesCommand.parse(arguments)
        if let name = command.operatorName {
            check(Gallery.entry(named: name) != nil, "parse accepted the unknown operator \(name.debugDescription)")
        }
        for text in command.inputs { checkInput(text) }
    } catch {
        check(!error.message.isEmpty, "a usage error without a message")
        check(RxMarblesCommand.message(for: error).hasPrefix("Error: "), "a usage error's text does not start with Error:")
    }
    if let name = arguments.first {
        _ = NearestMatch.unknownOperatorMessage(name, known: galleryNames)
        let file = RxMarblesCommand.fileName(for: name)
        check(!file.contains("/"), "file name \(file.debugDescription) leaves the directory")
    }
}

func fuzzCommand(_ text: String, options: UInt8) {
    let raw = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
    if parsersOnly {
        fuzzCommandHandling(raw.count == 1 && raw[0].isEmpty ? [] : raw)
        return
    }
    let arguments = sanitizedArguments(raw.count == 1 && raw[0].isEmpty ? [] : raw, svgToDevNull: options & 2 != 0)
    let environment = ToolEnvironment(stdoutIsTerminal: options & 4 != 0, variables: options & 8 != 0 ? ["NO_COLOR": "1"] : [:])
    do {
        let command = try RxMarblesCommand.parse(arguments)
        var written = 0
        try command.execute(environment: environment) { written += $0.utf8.count }
        check(written > 0, "rxmarbles \(arguments) ran and wrote nothing")
    } catch let failure as ToolFailure {
        check(failure.code == ToolFailure.dataError || failure.code == ToolFailure.cannotCreate, "unexpected exit status \(failure.code)")
        check(!failure.message.isEmpty, "a failure without a message")
    } catch {
        check(RxMarblesCommand.exitStatus(for: error) == UsageError.code, "\(error) is neither a usage error nor a ToolFailure")
        check(RxMarblesCommand.message(for: error).hasPrefix("Error: "), "an error's text does not start with Error:")
    }
    if let name = arguments.first {
        _ = NearestMatch.unknownOperatorMessage(name, known: galleryNames)
        let file = RxMarblesCommand.fileName(for: name)
        check(!file.contains("/"), "file name \(file.debugDescription) leaves the directory")
    }
}

/// The marble text as the tool's input type, through RxTestCore's parser directly.
func directInput(_ text: String) -> MarbleInput? {
    guard let timeline = try? Marbles.parseTimeline(text) else { return nil }
    let times = timeline.entries.map(\.time)
    guard times.allSatisfy({ $0 >= 0 && $0 < frameLimit }) else { return nil }
    let events = timeline.entries.map { entry -> Recorded<Event<String>> in
        switch entry.kind {
        case .key(let key): return Recorded(time: entry.time, value: .next(String(key)))
        case .error: return Recorded(time: entry.time, value: .error(MarbleDefaultError(key: "#")))
        case .completed: return Recorded(time: entry.time, value: .completed)
        }
    }
    return MarbleInput(events: events, frameCount: (times.max() ?? -1) + 1)
}

func render(_ diagram: OperatorDiagram, options: UInt8) {
    let text = TextRenderer(style: options & 4 != 0 ? .ansi : .plain, showSubscriptions: options & 8 != 0).render(diagram)
    check(!text.isEmpty, "empty text rendering of \(diagram.name)")
    let svg = SVGRenderer().render(diagram)
    check(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"), "SVG of \(diagram.name) does not start with an SVG element")
}

func fuzzInputs(_ bytes: UnsafeBufferPointer<UInt8>, options: UInt8) {
    guard bytes.count >= 2, !galleryNames.isEmpty else { return }
    let name = galleryNames[Int(bytes[1]) % galleryNames.count]
    guard let entry = Gallery.entry(named: name) else {
        check(false, "Gallery.names lists \(name), which Gallery.entry(named:) does not find")
        return
    }
    let text = String(decoding: bytes.dropFirst(2), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    var viaTool: [MarbleInput] = []
    var direct: [MarbleInput] = []
    for line in lines {
        if let input = try? MarbleInputParser.parse(line) {
            viaTool.append(input)
        }
        if let input = directInput(line) {
            direct.append(input)
        }
    }
    if parsersOnly { return }
    for inputs in [viaTool, direct] where inputs.count == lines.count {
        guard inputs.allSatisfy({ $0.frameCount < frameLimit }) else { continue }
        do {
            let diagram = try entry.diagram(inputs: inputs)
            check(diagram.name == entry.name, "diagram of \(entry.name) is named \(diagram.name)")
            render(diagram, options: options)
        } catch is GalleryInputError {
            // Wrong number of inputs, or a key the example cannot take.
        } catch {
            check(false, "diagram(inputs:) threw \(error), not a GalleryInputError")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRxMarbles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let selector = bytes.first else { return 0 }
    if selector & 1 == 0 {
        fuzzCommand(String(decoding: bytes.dropFirst(), as: UTF8.self), options: selector)
    } else {
        fuzzInputs(bytes, options: selector)
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver takes over.
@_cdecl("FuzzRxMarbles_main")
public func fuzzRxMarblesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        guard let data else { return 0 }
        return fuzzRxMarbles(data, size)
    }
}
