import FuzzerDriver
import RxLanes
import RxMarblesKit

// libFuzzer target for lanes recordings.
//
// Input: UTF-8 text (invalid sequences become U+FFFD), read as a lanes file. A thrown
// `LaneFileError` is a valid outcome if it names a line of the text (and a column of
// that line, when it names one). A recording that reads must come back unchanged from
// its own file text, and must draw (text, ASCII, SVG) and be written as a test with its
// first lane as the output and the others as inputs (a refusal is valid). A trap, a
// sanitizer report or a broken invariant (`check`) is a finding.

/// Stops the run with a message libFuzzer shows next to the input that broke it.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())")
    }
}

func fuzzLanes(_ text: String) {
    let recording: LaneRecording
    do {
        recording = try LaneRecording(fileText: text)
    } catch let error as LaneFileError {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        check(error.line >= 1 && error.line <= lines.count, "\(error) names no line of a \(lines.count)-line text")
        if let column = error.column {
            check(column >= 1 && column <= lines[error.line - 1].unicodeScalars.count + 1, "\(error) names no column of its line")
        }
        return
    } catch {
        check(false, "the reader threw \(error), not a LaneFileError")
        return
    }
    check((try? LaneRecording(fileText: recording.fileText)) == recording, "the recording does not survive its own file text")
    // The drawing's size grows with the recording's span of columns by design; keep it
    // to what a terminal shows.
    guard recording.entries.count <= 200, recording.lanes.count <= 20 else { return }
    let diagram = LaneDiagram(recording)
    _ = LaneTextRenderer().render(diagram)
    _ = LaneTextRenderer(style: .ansi, asciiOnly: true).render(diagram)
    _ = LaneSVGRenderer().render(diagram)
    if let output = recording.lanes.first?.name {
        let inputs = recording.lanes.dropFirst().map(\.name).filter { $0 != output }
        _ = try? LaneTestWriter(style: .xctest).write(recording, inputs: Array(Set(inputs)), output: output)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLanesInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzLanes(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver takes over.
@_cdecl("FuzzLanes_main")
public func fuzzLanesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        guard let data else { return 0 }
        return fuzzLanesInput(data, size)
    }
}
