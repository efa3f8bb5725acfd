import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Call stacks read as Swift names")
struct CallStackNameTests {
    @Test("the symbol of a test function reads as its Swift name")
    func testFunctionSymbol() {
        let symbol = "$s11RxTestTests18CallStackNameTestsV18testFunctionSymbolyyF"
        #expect(SwiftSymbolNames.readable(symbol, rawName: symbol) == "RxTestTests.CallStackNameTests.testFunctionSymbol() -> ()")
        // The backtracer's own name is kept when it is already demangled.
        #expect(SwiftSymbolNames.readable("CallStackNameTests.testFunctionSymbol()", rawName: symbol) == "CallStackNameTests.testFunctionSymbol()")
    }

    @Test("a mangled name inside a name (the @Test macro's functions) is demangled, without its hash")
    func embeddedNames() {
        let name = "closure #1 in static CallStackNameTests.$s11RxTestTests19StackFrameNameTestsV9frameName0F0fMp_16c398b732ca8a3059fMu_@Sendable ()"
        #expect(SwiftSymbolNames.readable(name, rawName: "$s-not-looked-at") == "closure #1 in static CallStackNameTests.(peer macro @Name expansion #1 of frameName in RxTestTests.StackFrameNameTests)@Sendable ()")
    }

    @Test("what is not a Swift symbol stays as it was")
    func notSwift() {
        #expect(SwiftSymbolNames.demangle("main") == nil)
        #expect(SwiftSymbolNames.readable("main", rawName: "main") == "main")
        #expect(SwiftSymbolNames.readable("$sZZ", rawName: "$sZZ") == "$sZZ")
        #expect(SwiftSymbolNames.readable("in $sQQ here", rawName: "x") == "in $sQQ here")
    }

    @Test("an anomaly's call stack from a test function reads as Swift names down to the test")
    func anomalyStack() {
        let line = #line + 3
        let failures = capturingFailures {
            withRxLeakCheck(.anomaliesOnly) {
                _ = Observable<Int>.error(testError).subscribe(onNext: { _ in })
            }
        }
        #expect(failures.count == 1)
        let message = failures.first?.message ?? ""
        let stack = message.components(separatedBy: "\ncall stack:\n").dropFirst().first?.split(separator: "\n").map(String.init) ?? []
        #expect(stack.first == "  closure #1 in closure #1 in CallStackNameTests.anomalyStack() at CallStackNameTests.swift:\(line)")
        #expect(stack.contains { $0.hasPrefix("  CallStackNameTests.anomalyStack() at CallStackNameTests.swift:") })
        // Below the test: the functions Swift Testing's macro wrote for it, by Swift names.
        #expect(stack.count > 3)
        #expect(stack.allSatisfy { !$0.contains("$s") }, "\(stack)")
    }
}
