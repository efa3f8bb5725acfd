import ArgumentParser
import Foundation

/// `rxmarbles serve`: the playground in a browser.
public struct ServeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rxmarbles serve",
        abstract: "Serve the marble playground: pick an operator, edit its inputs, see the output at once.",
        discussion: """
        Prints the address to open. Each diagram is computed by the server, running the real \
        operator on a TestScheduler. The page's address holds the operator and the inputs, so \
        it can be shared: http://127.0.0.1:8080/?op=combineLatest&input=-1--2|&input=--a-b|

        Listens on the loopback interface only unless --host says otherwise.
        """
    )

    /// The port.
    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    public var port: Int = 8080

    /// The interface.
    @Option(name: .long, help: "The address to listen on.")
    public var host: String = "127.0.0.1"

    public init() {}

    public func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, got \(port).")
        }
    }

    /// Parses `arguments` (those after `serve`) and runs the server, or exits with the
    /// usage error.
    public static func main(arguments: [String]) async {
        do {
            let command = try parse(arguments)
            try await command.run()
        } catch {
            exit(withError: error)
        }
    }

    public func run() async throws {
        let app = PlaygroundServer.application(host: host, port: port) { address in
            FileHandle.standardOutput.write(Data("Rivulet marble playground: \(address)\n".utf8))
        }
        do {
            try await app.runService()
        } catch {
            throw ServeFailure(message: "the playground on \(host):\(port) stopped: \(error)")
        }
    }
}

/// Why the server stopped (a port in use, most often).
struct ServeFailure: Error, CustomStringConvertible {
    let message: String

    var description: String { message }
}
