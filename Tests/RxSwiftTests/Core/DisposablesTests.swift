import Dispatch
import RivuletTestSupport
import RxSwift
import Testing
import RxTest

@Suite("Disposables", .rxLeakCheck)
struct DisposablesTests {
    @Test("an anonymous disposable runs its action once, from any number of threads")
    func anonymousOnce() {
        let count = LockedBox(0)
        let disposable = UnsafeTransfer(Disposables.create { count.increment() })
        DispatchQueue.concurrentPerform(iterations: 100) { _ in disposable.value.dispose() }
        #expect(count.value == 1)
        #expect(disposable.value.isDisposed)
    }

    @Test("binary and composite disposables dispose every member once")
    func groups() {
        let count = LockedBox(0)
        let binary = Disposables.create(Disposables.create { count.increment() }, Disposables.create { count.increment() })
        binary.dispose()
        binary.dispose()
        #expect(count.value == 2)

        let composite = CompositeDisposable()
        let key = composite.insert(Disposables.create { count.increment() })
        composite.insert(Disposables.create { count.increment() })
        #expect(composite.count == 2)
        composite.remove(for: key!)
        #expect(count.value == 3)
        #expect(composite.count == 1)
        composite.dispose()
        #expect(count.value == 4)
        #expect(composite.isDisposed)
        #expect(composite.insert(Disposables.create { count.increment() }) == nil)
        #expect(count.value == 5, "a disposable inserted after disposal is disposed at once")
    }

    @Test("a dispose bag disposes what it holds when it goes away, and late insertions at once")
    func disposeBag() {
        let count = LockedBox(0)
        var bag: DisposeBag? = DisposeBag()
        Disposables.create { count.increment() }.disposed(by: bag!)
        bag!.insert(Disposables.create { count.increment() }, Disposables.create { count.increment() })
        bag!.insert {
            Disposables.create { count.increment() }
            Disposables.create { count.increment() }
        }
        #expect(count.value == 0)
        bag = nil
        #expect(count.value == 5)

        let built = DisposeBag(disposing: Disposables.create { count.increment() })
        _ = built
    }

    @Test("a serial disposable disposes the replaced one and, after disposal, new ones at once")
    func serial() {
        let count = LockedBox(0)
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { count.increment() }
        serial.disposable = Disposables.create { count.increment() }
        #expect(count.value == 1)
        serial.dispose()
        #expect(count.value == 2)
        serial.disposable = Disposables.create { count.increment() }
        #expect(count.value == 3)
        #expect(serial.isDisposed)
    }

    @Test("a single-assignment disposable disposed early disposes the assigned one at once")
    func singleAssignment() {
        let count = LockedBox(0)
        let single = SingleAssignmentDisposable()
        single.dispose()
        single.setDisposable(Disposables.create { count.increment() })
        #expect(count.value == 1)

        let other = SingleAssignmentDisposable()
        other.setDisposable(Disposables.create { count.increment() })
        #expect(!other.isDisposed)
        other.dispose()
        other.dispose()
        #expect(count.value == 2)
    }

    @Test("a single-assignment disposable assigned and disposed at once on two threads disposes the assigned one exactly once")
    func singleAssignmentRace() {
        let count = LockedBox(0)
        let rounds = 2_000
        let singles = UnsafeTransfer((0..<rounds).map { _ in SingleAssignmentDisposable() })
        DispatchQueue.concurrentPerform(iterations: 2 * rounds) { index in
            let single = singles.value[index / 2]
            if index % 2 == 0 {
                single.setDisposable(Disposables.create { count.increment() })
            } else {
                single.dispose()
            }
        }
        #expect(count.value == rounds, "each assigned disposable is disposed once, whichever came second")
        #expect(singles.value.allSatisfy { $0.isDisposed })
    }

    @Test("a ref-count disposable waits for every retained reference")
    func refCount() {
        let count = LockedBox(0)
        let refCount = RefCountDisposable(disposable: Disposables.create { count.increment() })
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        #expect(count.value == 0)
        first.dispose()
        first.dispose()
        #expect(count.value == 0)
        second.dispose()
        #expect(count.value == 1)
        #expect(refCount.isDisposed)
    }

    @Test("a boolean disposable records its state")
    func boolean() {
        let disposable = BooleanDisposable()
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(BooleanDisposable(isDisposed: true).isDisposed)
    }

    @Test("a scheduled disposable disposes on its scheduler")
    func scheduled() {
        let scheduler = VirtualScheduler()
        let count = LockedBox(0)
        let disposable = ScheduledDisposable(scheduler: scheduler, disposable: Disposables.create { count.increment() })
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(count.value == 0)
        scheduler.start()
        #expect(count.value == 1)
    }

    @Test("disposal is thread-safe for every disposable kind")
    func concurrentDisposal() {
        for _ in 0..<50 {
            let count = LockedBox(0)
            let composite = CompositeDisposable()
            let serial = SerialDisposable()
            serial.disposable = Disposables.create { count.increment() }
            composite.insert(serial)
            composite.insert(Disposables.create { count.increment() })
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                if index % 2 == 0 { composite.dispose() } else { serial.dispose() }
            }
            #expect(count.value == 2)
        }
    }
}

/// A historical scheduler used where a test needs explicit control of when work runs.
typealias VirtualScheduler = HistoricalScheduler
