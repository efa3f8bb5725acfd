import Foundation

/// The root of this checkout (the folder holding Package.swift), for tests that compare
/// committed files with what the code produces now.
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent() // Tests/TestSupport
    .deletingLastPathComponent() // Tests
    .deletingLastPathComponent()
