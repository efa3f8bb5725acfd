import Foundation
import RxCocoa
import Testing

/// Converts what KVO would report, through the protocol only.
private func fromKVO<Value: KVORepresentable>(_ value: Value.KVOType, as type: Value.Type) -> Value? {
    Value(KVOValue: value)
}

@Suite("KVORepresentable")
struct KVORepresentableTests {
    @Test("the integer and Boolean types convert from the numbers KVO reports")
    func numbers() {
        #expect(fromKVO(NSNumber(value: 42), as: Int.self) == 42)
        #expect(fromKVO(NSNumber(value: -7), as: Int32.self) == -7)
        #expect(fromKVO(NSNumber(value: Int64.min), as: Int64.self) == Int64.min)
        #expect(fromKVO(NSNumber(value: 9), as: UInt.self) == 9)
        #expect(fromKVO(NSNumber(value: UInt32.max), as: UInt32.self) == UInt32.max)
        #expect(fromKVO(NSNumber(value: UInt64.max), as: UInt64.self) == UInt64.max)
        #expect(fromKVO(NSNumber(value: true), as: Bool.self) == true)
        #expect(fromKVO(NSNumber(value: 0), as: Bool.self) == false)
    }

    @Test("Int keeps values beyond 32 bits (RxSwift's reads them through int32Value)")
    func intIsNotTruncated() {
        #expect(Int(KVOValue: NSNumber(value: 5_000_000_000)) == 5_000_000_000)
    }
}
