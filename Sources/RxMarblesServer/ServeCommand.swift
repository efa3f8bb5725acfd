import Foundation
import RxMarblesKit

/// `rxmarbles serve`: the playground in a browser, the tool's subcommand
/// (`RxMarblesSubcommand.serve`).
///
/// The server itself (Hummingbird, SwiftNIO) is built with the package's `Playground`
/// trait only, so that a package using the library products never fetches it; without
/// the trait the command says how to run it.
public struct ServeCommand: Sendable {
    /// The port.
    public var port = 8080
    /// The interface.
    public var host = "127.0.0.1"
    /// A lanes recording to draw at `/lanes`.
    public var lanesFile: String?
    /// Prints the help instead.
    public var help = false

    public init() {}

    /// The one-line usage.
    public static let usage = "USAGE: " + RxMarblesSubcommand.serve.synopsis

    /// `rxmarbles serve --help`.
    public static let helpText = """
        rxmarbles serve: the marble playground. Pick an operator, edit its inputs, see the
        output at once.

        \(usage)

        OPTIONS:
          --port <port>   The port to listen on (0 picks a free one; default 8080).
          --host <host>   The address to listen on (default 127.0.0.1, the loopback
                          interface only).
          --lanes <file>  Also draw this lanes recording (rxmarbles lanes --help) at
                          /lanes, read anew at each reload of the page.
          -h, --help      Show this help.

        Prints the address to open. Each diagram is computed by the server, running the
        real operator on a TestScheduler. The page's address holds the operator and the
        inputs, so it can be shared:
          http://127.0.0.1:8080/?op=combineLatest&input=-1--2|&input=--a-b|

        The page at /lanes draws a lanes recording: the one given with --lanes, or one
        opened or pasted in the page.

        The server is built with the package's Playground trait:
          swift run --traits Playground --scratch-path .build-playground rxmarbles serve

        """

    /// Whether this build has the server (the `Playground` trait).
    public static var isAvailable: Bool {
        #if Playground
        true
        #else
        false
        #endif
    }

    /// The command that `arguments` (those after `serve`) ask for, validated.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ServeCommand {
        let parsed = try ParsedArguments(arguments, valueOptions: ["--port", "--host", "--lanes"], flagOptions: ["--help", "-h"])
        var command = ServeCommand()
        if parsed.has("--help") || parsed.has("-h") {
            command.help = true
            return command
        }
        if let extra = parsed.plain.first {
            throw UsageError("serve takes no operator or other argument, got '\(extra)': pick the operator in the page.")
        }
        if let port = try parsed.single("--port") {
            guard let number = Int(port), (0...65535).contains(number) else {
                throw UsageError("--port must be a number from 0 to 65535, got '\(port)'.")
            }
            command.port = number
        }
        if let host = try parsed.single("--host") {
            guard !host.isEmpty else { throw UsageError("--host is empty: give an address such as 127.0.0.1.") }
            command.host = host
        }
        if let lanes = try parsed.single("--lanes") {
            guard !lanes.isEmpty else { throw UsageError("--lanes is empty: name the recording's file.") }
            command.lanesFile = lanes
        }
        return command
    }

    /// Parses `arguments` (those after `serve`), runs the server until it stops and
    /// exits: 64 on a usage error, 69 (EX_UNAVAILABLE) when the server could not start
    /// or was not built in.
    public static func main(_ arguments: [String]) async -> Never {
        let command: ServeCommand
        do {
            command = try parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error.message)\n\(usage)\nSee 'rxmarbles serve --help'.\n".utf8))
            exit(UsageError.code)
        }
        if command.help {
            FileHandle.standardOutput.write(Data(helpText.utf8))
            exit(0)
        }
        if let lanesFile = command.lanesFile {
            // Read once now, so that a wrong name is told at once, not in the page.
            do {
                _ = try LanesCommand.readRecording(at: lanesFile)
            } catch {
                let message = (error as? ToolFailure)?.message ?? "\(error)"
                FileHandle.standardError.write(Data("rxmarbles serve: --lanes \(message)\n".utf8))
                exit(RxMarblesCommand.exitStatus(for: error))
            }
        }
        do {
            try await command.run()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(ServeFailure.unavailable)
        }
    }

    /// Runs the server until it stops.
    public func run() async throws {
        #if Playground
        let lanesFile = lanesFile
        let app = PlaygroundServer.application(host: host, port: port, lanesFile: lanesFile) { address in
            var text = "Rivulet marble playground: \(address)\n"
            if let lanesFile {
                text += "Lanes of \(lanesFile): \(address)lanes\n"
            }
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        do {
            try await app.runService()
        } catch {
            throw ServeFailure(message: ServeFailure.explain(error, host: host, port: port))
        }
        #else
        throw ServeFailure(message: """
            this rxmarbles was built without the playground server. Its web server \
            (Hummingbird, SwiftNIO) comes with the package's Playground trait, so that \
            packages using the library never fetch it. From the package's folder:
              swift run --traits Playground --scratch-path .build-playground rxmarbles serve
            """)
        #endif
    }
}

/// Why the server did not start or stopped.
struct ServeFailure: Error, CustomStringConvertible {
    let message: String

    var description: String { message }

    /// EX_UNAVAILABLE.
    static let unavailable: Int32 = 69

    /// The server's error in plain words, with what to do where that is known.
    static func explain(_ error: any Error, host: String, port: Int) -> String {
        let text = "\(error)"
        if text.contains("Address already in use") || text.contains("errno: 98") || text.contains("errno: 48") {
            return "the playground could not start: port \(port) on \(host) is already in use. Stop what uses it, or pick another port with --port (--port 0 picks a free one)."
        }
        if text.contains("Cannot assign requested address") || text.contains("errno: 99") || text.contains("errno: 49") {
            return "the playground could not start: \(host) is not an address of this machine. Use --host 127.0.0.1, or an address this machine has."
        }
        if text.contains("Permission denied") || text.contains("errno: 13") {
            return "the playground could not start: listening on port \(port) needs privileges. Pick a port above 1023 with --port."
        }
        return "the playground on \(host):\(port) stopped: \(text)"
    }
}
