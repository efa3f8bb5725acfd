import CounterFeature
import Foundation
import RxSwift

// Taps the counter twice and prints the labels it showed; exits 1 unless they are the
// expected ones. Runs on the main thread, where Drivers deliver at once.
let viewModel = CounterViewModel(start: 1)
var labels: [String] = []
let subscription = viewModel.label.drive(onNext: { labels.append($0) })
viewModel.increment.accept(())
viewModel.increment.accept(())
subscription.dispose()
print("counter: \(labels)")
exit(labels == ["Taps: 1", "Taps: 2", "Taps: 3"] ? 0 : 1)
