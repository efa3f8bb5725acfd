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

    /// The documented symbol each operator's diagram is added to, as a DocC symbol path
    /// under `RxSwift` (the overload the example calls; a suffix picks one of overloads
    /// that share a name).
    public static let symbols: [String: String] = [
        "just": "ObservableType/just(_:)",
        "of": "ObservableType/of(_:scheduler:)",
        "from": "ObservableType/from(_:scheduler:)-96ylt",
        "range": "ObservableType/range(start:count:scheduler:)",
        "interval": "ObservableType/interval(_:scheduler:)",
        "timer": "ObservableType/timer(_:period:scheduler:)",
        "empty": "ObservableType/empty()",
        "never": "ObservableType/never()",
        "error": "ObservableType/error(_:)",
        "map": "ObservableType/map(_:)",
        "scan": "ObservableType/scan(_:accumulator:)",
        "reduce": "ObservableType/reduce(_:accumulator:)",
        "compactMap": "ObservableType/compactMap(_:)",
        "flatMap": "ObservableType/flatMap(_:)",
        "flatMapLatest": "ObservableType/flatMapLatest(_:)->Observable<Source.Element>",
        "flatMapFirst": "ObservableType/flatMapFirst(_:)",
        "concatMap": "ObservableType/concatMap(_:)",
        "filter": "ObservableType/filter(_:)",
        "take": "ObservableType/take(_:)",
        "skip": "ObservableType/skip(_:)",
        "distinctUntilChanged": "ObservableType/distinctUntilChanged()",
        "takeWhile": "ObservableType/take(while:behavior:)",
        "skipWhile": "ObservableType/skip(while:)",
        "takeLast": "ObservableType/takeLast(_:)",
        "elementAt": "ObservableType/element(at:)",
        "ignoreElements": "ObservableType/ignoreElements()",
        "takeUntil": "ObservableType/take(until:)",
        "skipUntil": "ObservableType/skip(until:)",
        "startWith": "ObservableType/startWith(_:)",
        "combineLatest": "ObservableType/combineLatest(_:_:resultSelector:)",
        "zip": "ObservableType/zip(_:_:resultSelector:)",
        "merge": "ObservableType/merge(_:)-3udd4",
        "concat": "ObservableType/concat(_:)-5q66h",
        "withLatestFrom": "ObservableType/withLatestFrom(_:resultSelector:)",
        "amb": "ObservableType/amb(_:)-swift.type.method",
        "switchLatest": "ObservableType/switchLatest()",
        "debounce": "ObservableType/debounce(_:scheduler:)",
        "throttle": "ObservableType/throttle(_:latest:scheduler:)",
        "sample": "ObservableType/sample(_:defaultValue:)",
        "delay": "ObservableType/delay(_:scheduler:)",
        "delaySubscription": "ObservableType/delaySubscription(_:scheduler:)",
        "buffer": "ObservableType/buffer(timeSpan:count:scheduler:)",
        "timeout": "ObservableType/timeout(_:scheduler:)",
        "takeFor": "ObservableType/take(for:scheduler:)",
        "catch": "ObservableType/catch(_:)",
        "catchAndReturn": "ObservableType/catchAndReturn(_:)",
        "retry": "ObservableType/retry(_:)",
        "share": "ObservableType/share(replay:scope:)",
        "publish": "ObservableType/publish()",
        "observeOn": "ObservableType/observe(on:)",
        "subscribeOn": "ObservableType/subscribe(on:)",
    ]

    /// The path in the catalog of the extension file that adds the diagram to the
    /// operator's own page.
    public static func extensionPath(for operatorName: String) -> String {
        "Operators/" + imageName(for: operatorName) + ".md"
    }

    /// Every file to write: its path in the catalog and its contents.
    public static func files() -> [(path: String, contents: String)] {
        let renderer = SVGRenderer()
        var files: [(path: String, contents: String)] = []
        for entry in Gallery.entries {
            let diagram = entry.diagram()
            files.append((path: imagePath(for: entry.name), contents: renderer.render(diagram)))
            if let symbol = symbols[entry.name] {
                files.append((path: extensionPath(for: entry.name), contents: symbolExtension(entry, diagram: diagram, symbol: symbol)))
            }
        }
        files.append((path: articleFile, contents: article()))
        return files
    }

    /// The extension file that appends the diagram to the symbol's page.
    static func symbolExtension(_ entry: GalleryEntry, diagram: OperatorDiagram, symbol: String) -> String {
        """
        # ``RxSwift/\(symbol)``

        ## Marble diagram

        ![The marble diagram of \(entry.name).](\(imageName(for: entry.name)))

        `\(diagram.call)`, run on a `TestScheduler`, one virtual tick per frame. \(entry.summary)

        Every operator's diagram: <doc:OperatorDiagrams>.

        """
    }

    /// The files of `catalog` that differ from what the gallery draws now, are missing,
    /// or are operator diagrams or pages of no operator: their paths in the catalog, sorted.
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
        let pages = Set(Gallery.entries.map { extensionPath(for: $0.name) })
        let presentPages = (try? FileManager.default.contentsOfDirectory(atPath: catalog.appendingPathComponent("Operators").path)) ?? []
        for name in presentPages where !pages.contains("Operators/" + name) {
            stale.append("Operators/" + name)
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
