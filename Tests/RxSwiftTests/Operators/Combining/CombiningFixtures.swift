import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest

