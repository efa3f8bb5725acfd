import RxTestCore
import Testing
import XCTest

/// Where an assertion was written, in the forms both test frameworks need.
struct CallSite {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// A call site known only by path and line (XCTest's assertion signature); the
    /// file's folder stands in for its module.
    init(filePath: StaticString, line: UInt) {
        let path = "\(filePath)"
        let parts = path.split(separator: "/")
        let folder = parts.count >= 2 ? String(parts[parts.count - 2]) : "RxTest"
        self.fileID = "\(folder)/\(parts.last.map(String.init) ?? path)"
        self.filePath = filePath
        self.line = line
        self.column = 1
    }

    init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    var sourceSite: SourceSite {
        SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
}

/// Reports a failed check at `site`: an issue of the running Swift Testing test, or
/// otherwise an XCTest failure. Each goes to the test that made the check, so tests
/// running in parallel keep their failures apart.
func reportFailure(_ message: String, at site: CallSite) {
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    } else {
        XCTFail(message, file: site.filePath, line: site.line)
    }
}

/// Reports a finding of a test scope at its site (or `fallback`): an issue of the running
/// Swift Testing test, or otherwise an XCTest failure.
func reportFinding(_ finding: ScopeFinding, fallback: SourceSite?) {
    let site = finding.site ?? fallback
    if Test.current != nil {
        let location = site.map {
            SourceLocation(fileID: $0.fileID, filePath: $0.filePath, line: Int($0.line), column: Int($0.column))
        }
        Issue.record(Comment(rawValue: finding.message), sourceLocation: location ?? Test.current?.sourceLocation ?? SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
    } else if let xctestSite = [site, fallback].compactMap({ $0 }).first(where: { $0.staticFilePath != nil }),
              let path = xctestSite.staticFilePath {
        XCTFail(finding.message, file: path, line: xctestSite.line)
    } else {
        XCTFail(finding.message)
    }
}
