import Foundation
import Hummingbird
import HummingbirdTesting
import RxMarblesKit
import RxMarblesServer
import Testing

/// The playground's requests, answered by its router in process (no socket, no browser).
@Suite struct PlaygroundServerTests {
    let page = PlaygroundPage(files: [
        "index.html": Data("<html>playground</html>".utf8),
        "playground.js": Data("start()".utf8),
    ])

    /// Runs `body` with a client of the playground's router.
    func withClient(_ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: PlaygroundServer.router(page: page))
        try await app.test(.router, body)
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(response.body.readableBytesView))
    }

    @Test func theDiagramOfUserInputsIsTheOperatorRunOnThem() async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/diagram?op=map&input=-1--2-%7C", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let diagram = try decode(Playground.Diagram.self, response)
                #expect(diagram.operator == "map")
                #expect(diagram.call == "source.map { $0 * 10 }")
                #expect(diagram.events.contains("output: [.next(1, 10), .next(4, 20), .completed(6)]"))
                // The same picture as the library draws for those inputs.
                let expected = try Gallery.entry(named: "map")!.diagram(inputs: [MarbleInputParser.parse("-1--2-|")])
                #expect(diagram.svg == SVGRenderer().render(expected))
                #expect(diagram.inputMarbles == [[.init(frame: 1, position: 1), .init(frame: 4, position: 4)]])
                #expect(diagram.frameX.count == expected.frameCount)
            }
        }
    }

    @Test func severalInputsKeepTheirOrder() async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/diagram?op=combineLatest&input=-1--2%7C&input=--a-b%7C", method: .get) { response in
                #expect(response.status == .ok)
                let diagram = try decode(Playground.Diagram.self, response)
                #expect(diagram.events.contains("output: [.next(2, \"1a\"), .next(4, \"2a\"), .next(4, \"2b\"), .completed(5)]"))
                #expect(diagram.inputMarbles.map { $0.map(\.position) } == [[1, 4], [2, 4]])
            }
        }
    }

    @Test func withoutInputsTheExampleRuns() async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/diagram?op=filter", method: .get) { response in
                #expect(response.status == .ok)
                let diagram = try decode(Playground.Diagram.self, response)
                #expect(diagram.svg == SVGRenderer().render(Gallery.entry(named: "filter")!.diagram()))
            }
        }
    }

    @Test func theOperatorListHasEveryGalleryEntryWithItsInputs() async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/operators", method: .get) { response in
                #expect(response.status == .ok)
                let operators = try decode([Playground.Operator].self, response)
                #expect(operators.map(\.name) == Gallery.entries.map(\.name))
                let zip = try #require(operators.first { $0.name == "zip" })
                #expect(zip.inputs.map(\.name) == Gallery.entry(named: "zip")!.inputNames)
                #expect(zip.inputs.allSatisfy { !$0.marbles.isEmpty })
            }
        }
    }

    /// Expects `uri` to be answered 422 with a problem at `position` of input 1.
    func expectMarkedProblem(_ client: any TestClientProtocol, _ uri: String, position: Int, saying text: String) async throws {
        try await client.execute(uri: uri, method: .get) { response in
            #expect(response.status == .unprocessableContent)
            let problem = try decode(Playground.Problem.self, response)
            #expect(problem.input == 1)
            #expect(problem.position == position)
            #expect(problem.message.contains(text), "\(problem.message)")
        }
    }

    @Test func malformedMarblesAreA422NamingTheInputAndTheCharacter() async throws {
        try await withClient { client in
            try await expectMarkedProblem(client, "/api/diagram?op=map&input=-1-(2%7C", position: 3, saying: "'(' at position 3")
        }
    }

    @Test func aValueTheExampleCannotTakeIsMarkedWhereItStands() async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/diagram?op=combineLatest&input=-1-2%7C&input=-x-y-z%7C", method: .get) { response in
                // combineLatest's inputs take anything; map's take digits only.
                #expect(response.status == .ok)
            }
            try await expectMarkedProblem(client, "/api/diagram?op=map&input=--1-x%7C", position: 4, saying: "'x' at position 4 is not a digit")
        }
    }

    @Test func malformedRequestsGet4xx() async throws {
        try await withClient { client in
            let cases: [(String, HTTPResponse.Status)] = [
                ("/api/diagram", .badRequest),
                ("/api/diagram?op=", .badRequest),
                ("/api/diagram?op=fliter", .notFound),
                ("/api/diagram?op=%ZZ", .notFound),
                ("/api/diagram?op=map&input=-1-%7C&input=-2-%7C", .badRequest),
                ("/api/diagram?op=merge" + String(repeating: "&input=-1%7C", count: 9), .badRequest),
                ("/api/diagram?op=map&input=" + String(repeating: "-", count: 201), .unprocessableContent),
                ("/page/secret.txt", .notFound),
                ("/page/..%2FPackage.swift", .notFound),
                ("/nothing/here", .notFound),
            ]
            for (uri, status) in cases {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == status, "\(uri)")
                    #expect(response.status.code >= 400 && response.status.code < 500, "\(uri)")
                }
            }
            try await client.execute(uri: "/api/diagram?op=fliter", method: .get) { response in
                let problem = try decode(Playground.Problem.self, response)
                #expect(problem.message.contains("Did you mean 'filter'?"))
            }
            try await client.execute(uri: "/api/diagram?op=map", method: .post, body: ByteBuffer(string: "{")) { response in
                #expect(response.status.code >= 400 && response.status.code < 500)
            }
        }
    }

    @Test func thePageAndItsFilesAreServed() async throws {
        try await withClient { client in
            try await client.execute(uri: "/?op=map&input=-1-%7C", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self) == "<html>playground</html>")
            }
            try await client.execute(uri: "/page/playground.js", method: .get) { response in
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self) == "start()")
            }
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
