import Dispatch
import Foundation
import RxSwift
import RxTest

/// Errors used by the tests of the combining operators.
struct CombiningTestError: Error, CustomStringConvertible, Equatable {
    let id: Int
    var description: String { "CombiningTestError(\(id))" }
}

let combiningError = CombiningTestError(id: 0)
let combiningError1 = CombiningTestError(id: 1)
let combiningError2 = CombiningTestError(id: 2)

