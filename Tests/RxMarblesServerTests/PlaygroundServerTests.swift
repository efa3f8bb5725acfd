// The server exists with the package's Playground trait only:
//   swift test --traits Playground --filter RxMarblesServerTests
#if Playground
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RxMarblesKit
import RxMarblesServer
import Testing

/// An answer of the server: status, content type and body.
struct Answer {
    let status: Int
    let contentType: String?
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: body)
    }
}

/// A client of a playground server running on a free loopback port.
struct PlaygroundClient {
    let base: URL
    let session: URLSession

    /// `method` on `path` (with its query, already percent-encoded).
    func request(_ path: String, method: String = "GET", body: Data? = nil) async throws -> Answer {
        var request = URLRequest(url: try #require(URL(string: path, relativeTo: base)))
        request.httpMethod = method
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: data)
    }
}

/// Runs the playground server with `page` (and the lanes recording `lanesFile`) on
/// 127.0.0.1, port 0, for the time of `body`.
func withPlaygroundServer(page: PlaygroundPage, lanesFile: String? = nil, _ body: (PlaygroundClient) async throws -> Void) async throws {
    let (addresses, announce) = AsyncStream.makeStream(of: String.self)
    let app = PlaygroundServer.application(host: "127.0.0.1", port: 0, page: page, lanesFile: lanesFile) { address in
        announce.yield(address)
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        var iterator = addresses.makeAsyncIterator()
        let address = try #require(await iterator.next())
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        let session = URLSession(configuration: configuration)
        do {
            try await body(PlaygroundClient(base: try #require(URL(string: address)), session: session))
        } catch {
            group.cancelAll()
            throw error
        }
        session.invalidateAndCancel()
        group.cancelAll()
    }
}

/// The playground's requests, sent over HTTP to a server on a loopback port (no browser).
@Suite struct PlaygroundServerTests {
    let page = PlaygroundPage(files: [
        "index.html": Data("<html>playground</html>".utf8),
        "playground.js": Data("start()".utf8),
    ])

    @Test func theDiagramOfUserInputsIsTheOperatorRunOnThem() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/diagram?op=map&input=-1--2-%7C")
            #expect(answer.status == 200)
            #expect(answer.contentType == "application/json; charset=utf-8")
            let diagram = try answer.decode(Playground.Diagram.self)
            #expect(diagram.operator == "map")
            #expect(diagram.call == "source.map { $0 * 10 }")
            #expect(diagram.events.contains("output: [.next(1, 10), .next(4, 20), .completed(6)]"))
            // The same picture as the library draws for those inputs.
            let expected = try Gallery.entry(named: "map")!.diagram(inputs: [MarbleInputParser.parse("-1--2-|")])
            #expect(diagram.svg == SVGRenderer().render(expected))
            #expect(diagram.inputMarbles == [[.init(frame: 1, position: 1), .init(frame: 4, position: 4), .init(frame: 6, position: 6, kind: "completed")]])
            // The diagram as a test, of both kinds, as rxmarbles --test writes it.
            let entry = try #require(Gallery.entry(named: "map"))
            #expect(diagram.tests == [
                "xctest": try TestWriter(style: .xctest).write(expected, entry: entry),
                "swift-testing": try TestWriter(style: .swiftTesting).write(expected, entry: entry),
            ])
            #expect(diagram.frameX.count == expected.frameCount)
        }
    }

    @Test func severalInputsKeepTheirOrder() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/diagram?op=combineLatest&input=-1--2%7C&input=--a-b%7C")
            #expect(answer.status == 200)
            let diagram = try answer.decode(Playground.Diagram.self)
            #expect(diagram.events.contains("output: [.next(2, \"1a\"), .next(4, \"2a\"), .next(4, \"2b\"), .completed(5)]"))
            // Every event the picture draws, completions too, where the text has it.
            #expect(diagram.inputMarbles.map { $0.map(\.position) } == [[1, 4, 5], [2, 4, 5]])
            #expect(diagram.inputMarbles[0].map(\.kind) == ["element", "element", "completed"])
        }
    }

    @Test func withoutInputsTheExampleRuns() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/diagram?op=filter")
            #expect(answer.status == 200)
            let diagram = try answer.decode(Playground.Diagram.self)
            #expect(diagram.svg == SVGRenderer().render(Gallery.entry(named: "filter")!.diagram()))
        }
    }

    @Test func theOperatorListHasEveryGalleryEntryWithItsInputs() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/operators")
            #expect(answer.status == 200)
            let operators = try answer.decode([Playground.Operator].self)
            #expect(operators.map(\.name) == Gallery.entries.map(\.name))
            let zip = try #require(operators.first { $0.name == "zip" })
            #expect(zip.inputs.map(\.name) == Gallery.entry(named: "zip")!.inputNames)
            #expect(zip.inputs.allSatisfy { !$0.marbles.isEmpty })
            // What each input takes, for the page's hint: map's integers, flatMap's names.
            #expect(try #require(operators.first { $0.name == "map" }).inputs[0].accepts.contains("digit 0-9"))
            #expect(try #require(operators.first { $0.name == "flatMap" }).inputs[0].accepts.contains("one of a, b"))
            // Computed once: every request gets the same bytes.
            #expect(try await client.request("/api/operators").body == answer.body)
        }
    }

    @Test func chainsAndComparisonsAreTheGallerysOnTheSameInputs() async throws {
        try await withPlaygroundServer(page: page) { client in
            let chained = try await client.request("/api/diagram?op=filter&chain=map,debounce&input=-1-2-3-4-5-6%7C")
            #expect(chained.status == 200)
            let chain = try chained.decode(Playground.Diagram.self)
            let stages = try Gallery.chainedRuns(["filter", "map", "debounce"], inputs: [MarbleInputParser.parse("-1-2-3-4-5-6|")])
            #expect(chain.operator == "filter → map → debounce")
            #expect(chain.svg == SVGRenderer().render(Gallery.chain(of: stages)))
            let chainTest = try TestWriter(style: .swiftTesting).write(chaining: stages)
            #expect(chain.tests["swift-testing"] == chainTest)
            // The same with one parameter per operator.
            let again = try await client.request("/api/diagram?op=filter&chain=map&chain=debounce&input=-1-2-3-4-5-6%7C")
            #expect(try again.decode(Playground.Diagram.self).svg == chain.svg)
            let compared = try await client.request("/api/diagram?op=flatMap&compare=concatMap").decode(Playground.Diagram.self)
            let runs = try Gallery.comparedRuns(["flatMap", "concatMap"], inputs: nil)
            #expect(compared.svg == SVGRenderer().render(Gallery.comparison(of: runs)))
            let written = try TestWriter(style: .xctest).write(comparing: runs)
            #expect(compared.tests["xctest"] == written)
            let cases: [(String, Int, String)] = [
                ("/api/diagram?op=map&chain=combineLatest", 400, "cannot follow another operator"),
                ("/api/diagram?op=buffer&chain=map", 422, "map cannot take what buffer gives it"),
                ("/api/diagram?op=map&compare=combineLatest", 400, "compared operators take the same inputs"),
                ("/api/diagram?op=map&chain=filter&compare=filter", 400, "not both"),
                ("/api/diagram?op=map&chain=fliter", 400, "Did you mean 'filter'?"),
            ]
            for (path, status, text) in cases {
                let answer = try await client.request(path)
                #expect(answer.status == status, "\(path)")
                #expect(try answer.decode(Playground.Problem.self).message.contains(text), "\(path)")
            }
        }
    }

    @Test func theLimitsThePageUsesAreServed() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/limits")
            #expect(answer.status == 200)
            let limits = try answer.decode(Playground.Limits.self)
            #expect(limits == Playground.limits)
            #expect(limits.maximumInputLength == 200 && limits.maximumInputCount == 8)
            #expect(limits.frameWidth == SVGRenderer().metrics.frameWidth)
        }
    }

    @Test func messagesSpeakOfThePagesInputsNotTheCommandLine() async throws {
        try await withPlaygroundServer(page: page) { client in
            let value = try await client.request("/api/diagram?op=map&input=--1-x%7C").decode(Playground.Problem.self)
            #expect(value.message.hasPrefix("Input 1 (source) of map: 'x' at position 4"), "\(value.message)")
            let count = try await client.request("/api/diagram?op=map&input=-1-%7C&input=-2-%7C").decode(Playground.Problem.self)
            #expect(count.message == "map takes 1 input stream (source); got 2 inputs.")
            for message in [value.message, count.message] {
                #expect(!message.contains("--input"))
            }
        }
    }

    /// Expects `path` to be answered 422 with a problem at `position` of input 1.
    func expectMarkedProblem(_ client: PlaygroundClient, _ path: String, position: Int, saying text: String) async throws {
        let answer = try await client.request(path)
        #expect(answer.status == 422)
        let problem = try answer.decode(Playground.Problem.self)
        #expect(problem.input == 1)
        #expect(problem.position == position)
        #expect(problem.message.contains(text), "\(problem.message)")
    }

    @Test func malformedMarblesAreA422NamingTheInputAndTheCharacter() async throws {
        try await withPlaygroundServer(page: page) { client in
            try await expectMarkedProblem(client, "/api/diagram?op=map&input=-1-(2%7C", position: 3, saying: "'(' at position 3")
        }
    }

    @Test func aValueTheExampleCannotTakeIsMarkedWhereItStands() async throws {
        try await withPlaygroundServer(page: page) { client in
            // combineLatest's second input takes any key; map's input takes digits only.
            #expect(try await client.request("/api/diagram?op=combineLatest&input=-1-2%7C&input=-x-y-z%7C").status == 200)
            try await expectMarkedProblem(client, "/api/diagram?op=map&input=--1-x%7C", position: 4, saying: "'x' at position 4 is not a digit")
        }
    }

    @Test func malformedRequestsGet4xxAndTheServerGoesOn() async throws {
        try await withPlaygroundServer(page: page) { client in
            let cases: [(String, Int)] = [
                ("/api/diagram", 400),
                ("/api/diagram?op=", 400),
                ("/api/diagram?op=fliter", 404),
                ("/api/diagram?op=%ZZ", 404),
                ("/api/diagram?op=map&input=-1-%7C&input=-2-%7C", 400),
                ("/api/diagram?op=merge" + String(repeating: "&input=-1%7C", count: 9), 400),
                ("/api/diagram?op=map&input=" + String(repeating: "-", count: 201), 422),
                ("/page/secret.txt", 404),
                ("/page/..%2FPackage.swift", 404),
                ("/nothing/here", 404),
            ]
            for (path, status) in cases {
                #expect(try await client.request(path).status == status, "\(path)")
            }
            let unknown = try await client.request("/api/diagram?op=fliter").decode(Playground.Problem.self)
            #expect(unknown.message.contains("Did you mean 'filter'?"))
            let posted = try await client.request("/api/diagram?op=map", method: "POST", body: Data("{".utf8))
            #expect((400..<500).contains(posted.status))
            #expect(try await client.request("/api/diagram?op=map").status == 200)
        }
    }

    @Test func thePageAndItsFilesAreServed() async throws {
        try await withPlaygroundServer(page: page) { client in
            let index = try await client.request("/?op=map&input=-1-%7C")
            #expect(index.status == 200)
            #expect(index.contentType == "text/html; charset=utf-8")
            #expect(index.text == "<html>playground</html>")
            let script = try await client.request("/page/playground.js")
            #expect(script.contentType == "text/javascript; charset=utf-8")
            #expect(script.text == "start()")
        }
    }

    @Test func theBundledPageHasItsFiles() {
        let files = PlaygroundPage.bundled.files
        #expect(Set(files.keys).isSuperset(of: ["index.html", "playground.js", "playground.css"]))
        let html = String(decoding: files["index.html"] ?? Data(), as: UTF8.self)
        #expect(html.contains("/page/playground.js"))
        #expect(html.contains("/page/playground.css"))
    }
}
#endif
