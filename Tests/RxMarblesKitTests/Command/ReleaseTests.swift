import Foundation
import RivuletTestSupport
import Testing
@testable import RxMarblesKit

/// The version the tool reports is the release the changelog and the README describe.
@Suite struct ReleaseTests {
    @Test func theVersionIsTheChangelogsLatestRelease() throws {
        let changelog = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") && $0 != "## Unreleased" }
        #expect(releases.first.map(String.init) == "## \(RivuletVersion.current)")
    }

    @Test func theReadmesPackageLineNamesThePublishedURLAndAnAcceptedVersion() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let settings = try String(contentsOf: packageRoot.appendingPathComponent("scripts/release.env"), encoding: .utf8)
        let url = try #require(settings.split(separator: "\n").first { $0.hasPrefix("RIVULET_URL=") }?.dropFirst("RIVULET_URL=".count))
        let line = ".package(url: \"\(url)\", from: \""
        let range = try #require(readme.range(of: line), "the README has no \(line)…\") line")
        let required = readme[range.upperBound...].prefix { $0 != "\"" }
        let releaseParts = RivuletVersion.current.split(separator: ".").compactMap { Int($0) }
        let requiredParts = required.split(separator: ".").compactMap { Int($0) }
        #expect(requiredParts.count == 3)
        // from: accepts the release when it has the same major version and is no lower.
        #expect(requiredParts.first == releaseParts.first)
        #expect(requiredParts.lexicographicallyPrecedes(releaseParts) || requiredParts == releaseParts)
    }
}
