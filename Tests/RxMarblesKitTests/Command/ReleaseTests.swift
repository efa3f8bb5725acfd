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

    /// The README's package line names the published URL (its version is checked with the
    /// README's other requirements below).
    @Test func theReadmesPackageLineNamesThePublishedURL() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let settings = try String(contentsOf: packageRoot.appendingPathComponent("scripts/release.env"), encoding: .utf8)
        let url = try #require(settings.split(separator: "\n").first { $0.hasPrefix("RIVULET_URL=") }?.dropFirst("RIVULET_URL=".count))
        let line = ".package(url: \"\(url)\", from: \""
        #expect(readme.contains(line), "the README has no \(line)…\") line")
    }

    /// The README names RxSwift's newest release of the API Rivulet provides; the version
    /// must be at least that, or a requirement written for that release (`from:` its
    /// number) finds no Rivulet release.
    @Test func theVersionIsAtLeastRxSwiftsNewestReleaseOfItsAPI() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let release = try #require(versionParts(RivuletVersion.current))
        let named = readme.matches(of: /RxSwift (\d+)\.(\d+)\.(\d+)/).map { [Int($0.1)!, Int($0.2)!, Int($0.3)!] }
        let sameAPI = named.filter { $0.prefix(2) == release.prefix(2) }
        let newest = try #require(sameAPI.max { $0.lexicographicallyPrecedes($1) },
                                  "the README names no RxSwift \(release[0]).\(release[1]).x release")
        #expect(!release.lexicographicallyPrecedes(newest),
                "Rivulet \(RivuletVersion.current) is below RxSwift \(newest.map(String.init).joined(separator: ".")), which the README names")
    }

    /// Every `from:` requirement the README shows accepts the current release: the same
    /// major version, and no higher.
    @Test func everyRequirementTheReadmeShowsAcceptsTheRelease() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let release = try #require(versionParts(RivuletVersion.current))
        let required = readme.matches(of: /from: "(\d+\.\d+\.\d+)"/).map { String($0.1) }
        #expect(required.count >= 2)
        for requirement in required {
            let parts = try #require(versionParts(requirement))
            #expect(parts.first == release.first && !release.lexicographicallyPrecedes(parts),
                    "from: \"\(requirement)\" does not accept \(RivuletVersion.current)")
        }
    }
}

/// The three numbers of a version written `major.minor.patch`, or nil for anything else.
private func versionParts(_ version: String) -> [Int]? {
    let parts = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 3, parts.allSatisfy({ $0 != nil }) else { return nil }
    return parts.compactMap { $0 }
}
