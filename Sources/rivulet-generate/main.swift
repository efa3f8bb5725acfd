import ArityGenerator
import Foundation

// Rewrites the package's generated source files (the `*+Arity.generated.swift` overloads
// of combineLatest and zip). Run it from the package root after changing a generator:
//
//     swift run rivulet-generate            writes the files that changed
//     swift run rivulet-generate --check    lists stale files, exits 1 if there are any
let arguments = CommandLine.arguments.dropFirst()
guard arguments.allSatisfy({ $0 == "--check" }) else {
    FileHandle.standardError.write(Data("usage: rivulet-generate [--check]\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
guard FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) else {
    FileHandle.standardError.write(Data("rivulet-generate: run it from the package root (no Package.swift here)\n".utf8))
    exit(2)
}
do {
    if arguments.contains("--check") {
        let stale = GeneratedFiles.stale(in: root)
        for file in stale { print("stale: \(file.path)") }
        if !stale.isEmpty {
            print("regenerate with: \(GeneratedFiles.command)")
            exit(1)
        }
        print("\(GeneratedFiles.all.count) generated files up to date")
    } else {
        let written = try GeneratedFiles.write(to: root)
        for file in written { print("wrote \(file.path)") }
        print("\(written.count) of \(GeneratedFiles.all.count) generated files rewritten")
    }
} catch {
    FileHandle.standardError.write(Data("rivulet-generate: \(error)\n".utf8))
    exit(1)
}
