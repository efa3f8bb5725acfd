import Foundation

/// The operator pages of the RxSwift documentation catalog, made from the gallery: one
/// SVG marble diagram per operator in the catalog's `Resources`, and the article that
/// shows them all, family by family. `rxmarbles --docc <catalog>` writes them; a test
/// fails when the committed files differ from what the gallery draws now.
public enum OperatorDocs {
    /// The catalog the files belong in, from the repository's root.
    public static let catalogPath = "Sources/RxSwift/RxSwift.docc"

    /// The article's file name in the catalog.
    public static let articleFile = "OperatorDiagrams.md"

    /// The image's name in the catalog (DocC names resources without their extension).
    public static func imageName(for operatorName: String) -> String {
        "marble-" + String(RxMarblesCommand.fileName(for: operatorName).dropLast(4))
    }

    /// The image's path in the catalog.
    public static func imagePath(for operatorName: String) -> String {
        "Resources/" + imageName(for: operatorName) + ".svg"
    }

    /// Every file to write: its path in the catalog and its contents.
    public static func files() -> [(path: String, contents: String)] {
        let renderer = SVGRenderer()
        var files = Gallery.entries.map { entry in
            (path: imagePath(for: entry.name), contents: renderer.render(entry.diagram()))
        }
        files.append((path: articleFile, contents: article()))
        return files
    }

    /// The files of `catalog` that differ from what the gallery draws now, are missing,
    /// or are operator diagrams of no operator: their paths in the catalog, sorted.
    public static func staleFiles(in catalog: URL) -> [String] {
        var stale: [String] = []
        for file in files() {
            let committed = try? String(contentsOf: catalog.appendingPathComponent(file.path), encoding: .utf8)
            if committed != file.contents { stale.append(file.path) }
        }
        let wanted = Set(Gallery.entries.map { imagePath(for: $0.name) })
        let present = (try? FileManager.default.contentsOfDirectory(atPath: catalog.appendingPathComponent("Resources").path)) ?? []
        for name in present where name.hasPrefix("marble-") && !wanted.contains("Resources/" + name) {
            stale.append("Resources/" + name)
        }
        return stale.sorted()
    }

    /// The article: each operator's summary, call and diagram.
    public static func article() -> String {
        var text = """
        # Operator Diagrams

        Every operator's marble diagram, drawn by running the real operator on a `TestScheduler`.

        ## Overview

        Each picture below shows the inputs on top, the call in the box, and the output the
        operator produced underneath, one virtual tick per frame. `|` is completion, a red
        cross an error. The pictures are made by `rxmarbles --docc \(catalogPath)`
        from the same gallery that `swift run rxmarbles` shows, and a test fails when one
        of them no longer matches what the operator does. `rxmarbles serve` lets you change
        the inputs of any of them in a browser.

        """
        let entries = Gallery.entries
        for family in GalleryFamily.allCases {
            let members = entries.filter { $0.family == family }
            guard !members.isEmpty else { continue }
            text += "\n## \(family.rawValue)\n"
            for entry in members {
                text += """

                ### \(entry.name)

                \(entry.summary)

                ```swift
                \(entry.diagram().call)
                ```

                ![The marble diagram of \(entry.name).](\(imageName(for: entry.name)))

                """
            }
        }
        return text
    }
}
