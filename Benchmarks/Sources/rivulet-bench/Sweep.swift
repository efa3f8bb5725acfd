#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RxSwift

// The size sweep: work whose cost per unit must not grow with the number of
// observers, disposables or inner sources kept. Each row runs at n = 1k, 10k and 100k
// and prints the time per unit at each size and the growth from 1k to 100k (1.00x: the
// cost per unit stays flat; 100x: it grows with n, i.e. the work is quadratic).

/// One row of the sweep: `run(n)` does the work for n units and returns how many
/// units it saw complete (checked against n).
struct SweepRow {
    let name: String
    let unit: String
    let run: (Int) -> Int
}

/// The sizes each row runs at (`--sizes` changes them, e.g. for a profiler).
nonisolated(unsafe) var sweepSizes = [1_000, 10_000, 100_000]

/// The rows, in the order of the README's growth table.
func sweepRows() -> [SweepRow] {
    [
        SweepRow(name: "subject: subscribe n, dispose oldest first", unit: "subscription") { count in
            subjectSubscriptions(count: count, newestFirst: false)
        },
        SweepRow(name: "subject: subscribe n, dispose newest first", unit: "subscription") { count in
            subjectSubscriptions(count: count, newestFirst: true)
        },
        SweepRow(name: "DisposeBag: n subscriptions, bag released", unit: "subscription") { count in
            let subject = PublishSubject<Int>()
            let sink = Accumulator()
            var bag: DisposeBag? = DisposeBag()
            for _ in 0..<count { subject.subscribe(onNext: { sink.add($0) }).disposed(by: bag!) }
            subject.onNext(1)
            bag = nil
            precondition(!subject.hasObservers, "rivulet-bench: the released bag left observers")
            return sink.checksum.count
        },
        SweepRow(name: "CompositeDisposable: insert n, remove by key", unit: "disposable") { count in
            let group = CompositeDisposable()
            let disposables = (0..<count).map { _ in BooleanDisposable() }
            var keys: [CompositeDisposable.DisposeKey] = []
            keys.reserveCapacity(count)
            for disposable in disposables { keys.append(group.insert(disposable)!) }
            for key in keys { group.remove(for: key) }
            precondition(group.count == 0, "rivulet-bench: keys left in the group")
            return disposables.reduce(0) { $0 + ($1.isDisposed ? 1 : 0) }
        },
        SweepRow(name: "flatMap: n inner subjects, each 1 + done", unit: "inner source") { count in
            let inners = (0..<count).map { _ in PublishSubject<Int>() }
            let outer = PublishSubject<Int>()
            let sink = Accumulator()
            let subscription = outer.flatMap { inners[$0] }.subscribe(onNext: { sink.add($0) })
            for index in 0..<count { outer.onNext(index) }
            for (index, inner) in inners.enumerated() {
                inner.onNext(index)
                inner.onCompleted()
            }
            subscription.dispose()
            return sink.checksum.count
        },
        SweepRow(name: "groupBy: n groups, flattened", unit: "group") { count in
            let sink = Accumulator()
            _ = Observable.range(start: 0, count: count)
                .groupBy { $0 }
                .flatMap { $0 }
                .subscribe(onNext: { sink.add($0) })
            return sink.checksum.count
        },
    ]
}

private func subjectSubscriptions(count: Int, newestFirst: Bool) -> Int {
    let subject = PublishSubject<Int>()
    let sink = Accumulator()
    var subscriptions: [Disposable] = []
    subscriptions.reserveCapacity(count)
    for _ in 0..<count { subscriptions.append(subject.subscribe(onNext: { sink.add($0) })) }
    subject.onNext(1)
    if newestFirst {
        for subscription in subscriptions.reversed() { subscription.dispose() }
    } else {
        for subscription in subscriptions { subscription.dispose() }
    }
    precondition(!subject.hasObservers, "rivulet-bench: disposed observers are still subscribed")
    return sink.checksum.count
}

/// Runs the sweep (rows whose name contains `filter`, if given) and prints its table.
func runSweep(filter: String?, repetitions: Int) {
    let sizes = sweepSizes.map { $0 % 1_000 == 0 ? "\($0 / 1_000)k" : "\($0)" }
    print("size sweep: ns per unit at n = \(sizes.joined(separator: " / ")) (median of \(repetitions)), growth = cost per unit at the last size / at the first")
    let header = ([pad("row", 46), pad("unit", 13)] + sizes.map { pad("n=" + $0, 9, right: true) } + [pad("growth", 8, right: true)])
        .joined(separator: " ")
    print(header)
    print(String(repeating: "-", count: header.count))
    for row in sweepRows() {
        if let filter, !row.name.lowercased().contains(filter.lowercased()) { continue }
        printError("sweeping \(row.name)...\n")
        _ = row.run(sweepSizes[0])
        var perUnit: [Double] = []
        for size in sweepSizes {
            var samples: [Double] = []
            for _ in 0..<repetitions {
                let start = monotonicNanoseconds()
                let seen = row.run(size)
                let elapsed = monotonicNanoseconds() &- start
                if seen != size {
                    printError("rivulet-bench: CHECK FAILED in sweep '\(row.name)' at n = \(size): \(seen) units completed\n")
                    exit(2)
                }
                samples.append(Double(elapsed) / Double(size))
            }
            samples.sort()
            perUnit.append(samples[samples.count / 2])
        }
        let growth = perUnit[perUnit.count - 1] / perUnit[0]
        let cells = perUnit.map { pad(nanoseconds($0), 9, right: true) }
        print(([pad(row.name, 46), pad(row.unit, 13)] + cells + [pad(ratio(growth), 8, right: true)]).joined(separator: " "))
    }
}
