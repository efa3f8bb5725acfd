import Foundation
import RivuletTestSupport
import Testing

/// The README and the migration article give one recipe for mirroring RxSwift's URL, and
/// it is the one scripts/migration-check.sh runs in CI.
@Suite("The mirror recipe")
struct MirrorRecipeTests {
    static let documents = ["README.md", "Sources/RxSwift/RxSwift.docc/MigratingFromRxSwift.md"]

    @Test("the README and the migration article show the same recipe")
    func oneRecipe() throws {
        let recipes = try Self.documents.map { try mirrorRecipes(in: text(of: $0)) }
        for (document, found) in zip(Self.documents, recipes) {
            #expect(found.count == 1, "\(document) has \(found.count) shell blocks with set-mirror")
        }
        #expect(Set(recipes.joined()).count == 1, "the recipes differ: \(recipes)")
    }

    @Test("the recipe mirrors both spellings of RxSwift's URL, those CI mirrors, to a repository named RxSwift")
    func bothSpellingsToARepositoryNamedRxSwift() throws {
        let recipe = try #require(mirrorRecipes(in: text(of: Self.documents[0])).first)
        let loop = try #require(recipe.firstMatch(of: /for url in ([^;]+);/), "the recipe has no loop over the URLs")
        let originals = loop.1.split(separator: " ").map(String.init)
        #expect(Set(originals) == ["https://github.com/ReactiveX/RxSwift.git", "https://github.com/ReactiveX/RxSwift"])
        #expect(recipe.contains("--original \"$url\""))

        let script = try text(of: "scripts/migration-check.sh")
        let mirrored = try #require(script.firstMatch(of: /urls=\(([^)]+)\)/), "migration-check.sh names no urls")
        #expect(Set(mirrored.1.split(separator: " ").map(String.init)) == Set(originals))

        let mirror = try #require(recipe.firstMatch(of: /--mirror (\S+)/)).1
        let name = mirror.split(separator: "/").last.map { $0.hasSuffix(".git") ? $0.dropLast(4) : $0[...] }
        #expect(name == "RxSwift", "SwiftPM names the package after the mirror's last component: \(mirror)")
    }
}

private func text(of path: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
}

/// The fenced `sh` blocks of a Markdown text that set a mirror.
private func mirrorRecipes(in markdown: String) -> [String] {
    markdown.matches(of: /```sh\n(.*?)```/.dotMatchesNewlines()).map { String($0.1) }.filter { $0.contains("set-mirror") }
}
