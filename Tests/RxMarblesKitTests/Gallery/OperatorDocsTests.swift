import Foundation
import RivuletTestSupport
import RxMarblesKit
import Testing

/// The operator diagrams committed in the RxSwift catalog are what the gallery draws now.
@Suite struct OperatorDocsTests {
    /// The RxSwift catalog of this checkout.
    static let catalog = packageRoot.appendingPathComponent(OperatorDocs.catalogPath)

    @Test func theCommittedDiagramsAndArticleAreWhatTheGalleryDrawsNow() {
        let stale = OperatorDocs.staleFiles(in: Self.catalog)
        #expect(stale.isEmpty, "stale: \(stale); regenerate with: swift run rxmarbles --docc \(OperatorDocs.catalogPath)")
    }

    @Test func everyOperatorHasItsPictureInTheArticle() throws {
        let wanted = Gallery.entries.map { OperatorDocs.imageName(for: $0.name) }
        #expect(Set(wanted).count == Gallery.entries.count, "two operators share an image name")
        let article = OperatorDocs.article()
        for (entry, image) in zip(Gallery.entries, wanted) {
            #expect(article.contains("](\(image))"), "\(entry.name) has no picture in the article")
            #expect(OperatorDocs.files().contains { $0.path == "Resources/\(image).svg" })
        }
        let root = try String(contentsOf: Self.catalog.appendingPathComponent("RxSwift.md"), encoding: .utf8)
        #expect(root.contains("<doc:OperatorDiagrams>"))
    }

    @Test func everyOperatorsOwnPageGetsItsDiagram() {
        for entry in Gallery.entries {
            let symbol = OperatorDocs.symbols[entry.name]
            #expect(symbol != nil, "\(entry.name) names no symbol in OperatorDocs.symbols")
            let page = OperatorDocs.files().first { $0.path == OperatorDocs.extensionPath(for: entry.name) }
            #expect(page?.contents.hasPrefix("# ``RxSwift/\(symbol ?? "")``\n") == true)
            #expect(page?.contents.contains("](\(OperatorDocs.imageName(for: entry.name)))") == true)
        }
        #expect(Set(OperatorDocs.symbols.keys) == Set(Gallery.entries.map(\.name)), "symbols of operators the gallery no longer has")
    }

    @Test func aChangedMissingOrLeftOverDiagramIsStale() throws {
        // A copy of the catalog's generated files, then one changed, one removed, one added.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("rxmarbles-docc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for file in OperatorDocs.files() {
            let url = copy.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url)
        }
        #expect(OperatorDocs.staleFiles(in: copy).isEmpty)

        let map = copy.appendingPathComponent("Resources/marble-map.svg")
        let drawn = try String(contentsOf: map, encoding: .utf8)
        try Data(drawn.replacingOccurrences(of: "data-frame=\"1\"", with: "data-frame=\"2\"").utf8).write(to: map)
        try FileManager.default.removeItem(at: copy.appendingPathComponent("Resources/marble-zip.svg"))
        try Data("<svg/>".utf8).write(to: copy.appendingPathComponent("Resources/marble-retired.svg"))
        try Data("# ``RxSwift/ObservableType/retired()``".utf8).write(to: copy.appendingPathComponent("Operators/marble-retired.md"))
        #expect(OperatorDocs.staleFiles(in: copy) == [
            "Operators/marble-retired.md", "Resources/marble-map.svg", "Resources/marble-retired.svg", "Resources/marble-zip.svg",
        ])
    }

    @Test func theToolWritesTheCatalogFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxmarbles-docc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runExecutable(["--docc", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Wrote \(Gallery.entries.count) operator diagrams, \(Gallery.entries.count) additions"))
        #expect(OperatorDocs.staleFiles(in: folder).isEmpty)
        #expect(try runExecutable(["map", "--docc", folder.path]).status == 64)
    }
}
