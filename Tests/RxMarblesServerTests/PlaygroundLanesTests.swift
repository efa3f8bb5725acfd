// The server exists with the package's Playground trait only:
//   swift test --traits Playground --filter RxMarblesServerTests
#if Playground
import Foundation
import RxLanes
import RxMarblesKit
import RxMarblesServer
import Testing

/// The lanes page's requests: a recording posted or given to the server, drawn.
@Suite struct PlaygroundLanesTests {
    let page = PlaygroundPage(files: ["lanes.html": Data("<html>lanes</html>".utf8)])

    /// Every kind of entry, on two threads.
    let recording = LaneRecording(
        lanes: [.init(name: "email", elementType: "String", capacity: 100), .init(name: "signIn", elementType: "Response", capacity: 100, dropped: 3)],
        threads: ["main", "com.example.network"],
        entries: [
            .init(time: 1_000_000, lane: 0, subscription: 1, thread: 0, kind: .subscribed),
            .init(time: 2_000_000, lane: 0, subscription: 1, thread: 0, kind: .next("alice@example.com")),
            .init(time: 3_000_000, lane: 1, subscription: 2, thread: 1, kind: .next("ok")),
            .init(time: 3_500_000, lane: 1, subscription: 2, thread: 1, kind: .completed),
            .init(time: 4_000_000, lane: 1, subscription: 3, thread: 0, kind: .subscribed),
            .init(time: 5_000_000, lane: 1, subscription: 3, thread: 1, kind: .error("offline")),
            .init(time: 9_000_000, lane: 0, subscription: 1, thread: 0, kind: .disposed),
        ]
    )

    @Test func aPostedRecordingIsDrawnAsRxmarblesLanesDrawsIt() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/lanes", method: "POST", body: Data(recording.fileText.utf8))
            #expect(answer.status == 200)
            #expect(answer.contentType == "application/json; charset=utf-8")
            let lanes = try answer.decode(Playground.Lanes.self)
            let diagram = LaneDiagram(recording)
            #expect(lanes.svg == LaneSVGRenderer().render(diagram))
            #expect(lanes.text == LaneTextRenderer().render(diagram))
            #expect(lanes.heading == diagram.heading())
            #expect(lanes.file == nil)
            #expect(lanes.heading.hasPrefix("2 lanes, 3 subscriptions, 7 events"))
        }
    }

    @Test func aMalformedRecordingIsA422NamingTheLineAndColumn() async throws {
        try await withPlaygroundServer(page: page) { client in
            let text = recording.fileText.replacingOccurrences(of: "next \"ok\"", with: "next ok")
            let answer = try await client.request("/api/lanes", method: "POST", body: Data(text.utf8))
            #expect(answer.status == 422)
            let problem = try answer.decode(Playground.Problem.self)
            let lineNumber = try #require(text.split(separator: "\n").firstIndex { $0.hasSuffix("next ok") }) + 1
            #expect(problem.line == lineNumber)
            #expect(problem.column == 26)
            #expect(problem.lineText == "event 3000000 1 2 1 next ok")
            #expect(problem.message == "line \(lineNumber), column 26: expected the element's text in double quotes, found 'ok'")
            // Cut short: the last line read is named.
            let cut = String(recording.fileText.split(separator: "\n").dropLast().joined(separator: "\n"))
            let truncated = try await client.request("/api/lanes", method: "POST", body: Data(cut.utf8))
            #expect(truncated.status == 422)
            #expect(try truncated.decode(Playground.Problem.self).message.contains("it is cut short"))
            // Not text at all.
            let binary = try await client.request("/api/lanes", method: "POST", body: Data([0xFF, 0xFE, 0x00]))
            #expect(binary.status == 422)
            #expect(try binary.decode(Playground.Problem.self).message.contains("not UTF-8 text"))
            // The server goes on.
            #expect(try await client.request("/api/lanes", method: "POST", body: Data(recording.fileText.utf8)).status == 200)
        }
    }

    @Test func anEmptyRecordingIsAnEmptyDiagram() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/lanes", method: "POST", body: Data())
            #expect(answer.status == 200)
            let lanes = try answer.decode(Playground.Lanes.self)
            #expect(lanes.text == "No events recorded.\n")
            #expect(lanes.svg.contains("No events recorded."))
        }
    }

    @Test func aRecordingTooLargeIsRefused() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/lanes", method: "POST", body: Data(count: Playground.maximumRecordingSize + 1))
            #expect(answer.status == 413)
            #expect(try answer.decode(Playground.Problem.self).message.contains("larger than"))
        }
    }

    @Test func theRecordingGivenToTheServerIsReadAtEachRequest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxmarbles-lanes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("sign-in.lanes")
        try Data(recording.fileText.utf8).write(to: file)
        try await withPlaygroundServer(page: page, lanesFile: file.path) { client in
            let answer = try await client.request("/api/lanes")
            #expect(answer.status == 200)
            let lanes = try answer.decode(Playground.Lanes.self)
            #expect(lanes.file == "sign-in.lanes")
            #expect(lanes.text == LaneTextRenderer().render(LaneDiagram(recording)))
            // Written anew: the next request draws the new one, problems included.
            try Data("rivulet-lanes 2\n".utf8).write(to: file)
            let changed = try await client.request("/api/lanes")
            #expect(changed.status == 422)
            let problem = try changed.decode(Playground.Problem.self)
            #expect(problem.line == 1)
            #expect(problem.message.contains("version 2"))
            try FileManager.default.removeItem(at: file)
            #expect(try await client.request("/api/lanes").status == 500)
            let page = try await client.request("/lanes")
            #expect(page.status == 200)
            #expect(page.text == "<html>lanes</html>")
        }
    }

    @Test func withoutARecordingTheServerSaysHowToGiveOne() async throws {
        try await withPlaygroundServer(page: page) { client in
            let answer = try await client.request("/api/lanes")
            #expect(answer.status == 404)
            #expect(try answer.decode(Playground.Problem.self).message.contains("rxmarbles serve --lanes FILE"))
        }
    }

    @Test func theBundledPageHasTheLanesPage() {
        let files = PlaygroundPage.bundled.files
        #expect(Set(files.keys).isSuperset(of: ["lanes.html", "lanes.js"]))
        let html = String(decoding: files["lanes.html"] ?? Data(), as: UTF8.self)
        #expect(html.contains("/page/lanes.js"))
        #expect(html.contains("id=\"lanes-file\""))
        let index = String(decoding: files["index.html"] ?? Data(), as: UTF8.self)
        #expect(index.contains("href=\"/lanes\""))
    }
}
#endif
