#if Playground
import Foundation
import Hummingbird
import Logging

/// The playground's HTTP side: the page (HTML, CSS and JavaScript shipped as resources)
/// and a small JSON API over ``Playground``.
///
/// - `GET /`: the page; its query (`?op=map&input=-1-2-|`) says what it shows.
/// - `GET /api/operators`: the gallery's operators with their default inputs (computed
///   once).
/// - `GET /api/limits`: the input limits and the frame width the page works with.
/// - `&chain=map,debounce` or `&compare=concatMap,flatMapLatest` on `/api/diagram`: the
///   operator followed by others, or beside them.
/// - `GET /api/diagram?op=NAME&input=MARBLES&input=...`: the diagram, its events and
///   where the inputs' marbles stand; without `input`, the example's own inputs.
///   A malformed request gets 400, an unknown operator 404, marble text that cannot be
///   read or used 422, each with `{"message": ..., "input": ..., "position": ...}`.
/// - `GET /lanes`: the page that draws a lanes recording.
/// - `POST /api/lanes` with a recording's text: its drawing (``Playground/Lanes``); a
///   recording that cannot be read gets 422 with `{"message": ..., "line": ...,
///   "column": ..., "lineText": ...}`, one larger than
///   ``Playground/maximumRecordingSize`` 413.
/// - `GET /api/lanes`: the drawing of the recording the server was started with
///   (`rxmarbles serve --lanes FILE`), read anew at each request; 404 without one.
public enum PlaygroundServer {
    /// The router answering the playground's requests; `lanesFile` is the recording
    /// `GET /api/lanes` draws.
    public static func router(page: PlaygroundPage = .bundled, lanesFile: String? = nil) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in
            page.response(for: "index.html")
        }
        router.get("/lanes") { _, _ in
            page.response(for: "lanes.html")
        }
        router.post("/api/lanes") { request, _ in
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: Playground.maximumRecordingSize)
            } catch {
                let megabytes = Playground.maximumRecordingSize / (1024 * 1024)
                return json(Playground.Problem(status: 413, message: "The recording is larger than \(megabytes) MB."), status: .contentTooLarge)
            }
            guard let text = String(data: Data(body.readableBytesView), encoding: .utf8) else {
                return json(Playground.Problem(status: 422, message: "This is not a lanes recording: it is not UTF-8 text."), status: .unprocessableContent)
            }
            return lanesResponse(text, file: nil)
        }
        router.get("/api/lanes") { _, _ in
            guard let lanesFile else {
                return json(Playground.Problem(status: 404, message: "This server was started without a recording: rxmarbles serve --lanes FILE shows one."), status: .notFound)
            }
            let name = (lanesFile as NSString).lastPathComponent
            guard let data = FileManager.default.contents(atPath: lanesFile) else {
                return json(Playground.Problem(status: 500, message: "\(lanesFile) cannot be read any more."), status: .internalServerError)
            }
            guard let text = String(data: data, encoding: .utf8) else {
                return json(Playground.Problem(status: 422, message: "\(name) is not a lanes recording: it is not UTF-8 text."), status: .unprocessableContent)
            }
            return lanesResponse(text, file: name)
        }
        router.get("/page/:file") { _, context in
            page.response(for: context.parameters.get("file") ?? "")
        }
        // The same for every request: encoded once.
        let operators = encoded(Playground.operators())
        let limits = encoded(Playground.limits)
        router.get("/api/operators") { _, _ in
            jsonResponse(operators, status: .ok)
        }
        router.get("/api/limits") { _, _ in
            jsonResponse(limits, status: .ok)
        }
        router.get("/api/diagram") { request, _ in
            let query = request.uri.queryParameters
            let inputs = query[values: "input"].map(String.init)
            // `chain=map,debounce` or `chain=map&chain=debounce`; `compare` likewise.
            func names(_ key: String) -> [String] {
                query[values: Substring(key)].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            return diagramResponse(
                operator: query["op"].map(String.init), inputs: inputs.isEmpty ? nil : inputs,
                chain: names("chain"), compare: names("compare")
            )
        }
        return router
    }

    /// The diagram as JSON, or the problem with its status.
    static func diagramResponse(operator name: String?, inputs: [String]?, chain: [String], compare: [String]) -> Response {
        do throws(Playground.Problem) {
            return json(try Playground.diagram(operator: name, inputs: inputs, chain: chain, compare: compare), status: .ok)
        } catch {
            return json(error, status: HTTPResponse.Status(code: error.status))
        }
    }

    /// The drawing of the recording `text` as JSON, or the problem with its status.
    static func lanesResponse(_ text: String, file: String?) -> Response {
        do throws(Playground.Problem) {
            return json(try Playground.lanes(fileText: text, file: file), status: .ok)
        } catch {
            return json(error, status: HTTPResponse.Status(code: error.status))
        }
    }

    /// A JSON response with `value`.
    static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        jsonResponse(encoded(value), status: status)
    }

    /// `value` as JSON, keys sorted.
    static func encoded(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// A JSON response with `data`.
    static func jsonResponse(_ data: Data, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The application listening on `host`:`port`, drawing `lanesFile` at `/lanes`
    /// if given; `onRunning` gets the address it bound (port 0 picks a free one).
    public static func application(
        host: String, port: Int, page: PlaygroundPage = .bundled, lanesFile: String? = nil,
        onRunning: @escaping @Sendable (String) async -> Void
    ) -> some ApplicationProtocol {
        var logger = Logger(label: "rxmarbles.serve")
        logger.logLevel = .warning
        return Application(
            router: router(page: page, lanesFile: lanesFile),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "rxmarbles"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                await onRunning("http://\(shownHost):\(bound)/")
            },
            logger: logger
        )
    }
}

/// The files of the page, read once.
public struct PlaygroundPage: Sendable {
    /// File name to contents.
    public let files: [String: Data]

    /// A page made of `files`.
    public init(files: [String: Data]) {
        self.files = files
    }

    /// The page shipped with the tool (the target's `Page` resources).
    public static let bundled: PlaygroundPage = {
        var files: [String: Data] = [:]
        if let folder = Bundle.module.url(forResource: "Page", withExtension: nil),
           let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for name in names {
                files[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            }
        }
        return PlaygroundPage(files: files)
    }()

    /// The file `name` with its content type, or 404.
    func response(for name: String) -> Response {
        guard let data = files[name] else {
            return Response(status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "No such file.")))
        }
        let type: String
        switch (name as NSString).pathExtension {
        case "html": type = "text/html; charset=utf-8"
        case "css": type = "text/css; charset=utf-8"
        case "js": type = "text/javascript; charset=utf-8"
        case "svg": type = "image/svg+xml"
        default: type = "application/octet-stream"
        }
        return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
#endif
