import RivuletTestSupport
import RxSwift
import RxTest

/// Disposables: two threads dispose the same one, or one disposes while another adds,
/// replaces, assigns or releases. Whatever the order, each disposable held is disposed
/// exactly once.
enum DisposableScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("Disposables.create(with:)", "two threads disposing", depth: 2, seed: 801) { run in
            let calls = CallCount()
            let disposable = Disposables.create { calls.record("action") }
            disposeTwice(disposable, in: run)
            calls.expect(in: run, ["action"], calledTimes: 1)
            run.expect({ disposable.isDisposed }) { "not disposed" }
        },
        ExplorationScenario("Disposables.create(_:_:)", "two threads disposing", depth: 2, seed: 802) { run in
            let calls = CallCount()
            disposeTwice(Disposables.create(calls.disposable("first"), calls.disposable("second")), in: run)
            calls.expect(in: run, ["first", "second"], calledTimes: 1)
        },
        ExplorationScenario("BooleanDisposable", "two threads disposing", depth: 2, seed: 803) { run in
            let disposable = BooleanDisposable()
            let seen = LockedBox([Bool]())
            for name in ["one", "two"] {
                run.thread(name) {
                    disposable.dispose()
                    seen.append(disposable.isDisposed)
                }
            }
            run.expect({ seen.value == [true, true] }) { "isDisposed read after dispose(): \(seen.value)" }
        },
        ExplorationScenario("CompositeDisposable", "two threads disposing", depth: 2, seed: 804) { run in
            let calls = CallCount()
            let composite = CompositeDisposable(calls.disposable("first"), calls.disposable("second"))
            disposeTwice(composite, in: run)
            calls.expect(in: run, ["first", "second"], calledTimes: 1)
            run.expect({ composite.isDisposed && composite.count == 0 }) { "\(composite.count) disposables left in a disposed composite" }
        },
        ExplorationScenario("CompositeDisposable", "an insertion against dispose", seed: 805) { run in
            let calls = CallCount()
            let composite = CompositeDisposable(disposables: [calls.disposable("held")])
            let key = LockedBox<CompositeDisposable.DisposeKey?>(nil)
            run.thread("inserter") { key.value = composite.insert(calls.disposable("inserted")) }
            run.thread("disposer", disposing: composite)
            calls.expect(in: run, ["held", "inserted"], calledTimes: 1)
            run.expect({ composite.count == 0 }) { "\(composite.count) disposables left in a disposed composite" }
        },
        ExplorationScenario("CompositeDisposable", "a removal against dispose", seed: 806) { run in
            let calls = CallCount()
            let composite = CompositeDisposable()
            let key = UnsafeTransfer(composite.insert(calls.disposable("removed")))
            _ = composite.insert(calls.disposable("kept"))
            run.thread("remover") { key.value.map { composite.remove(for: $0) } }
            run.thread("disposer", disposing: composite)
            calls.expect(in: run, ["removed", "kept"], calledTimes: 1)
            run.expect({ composite.isDisposed && composite.count == 0 }) { "\(composite.count) disposables left in a disposed composite" }
        },
        ExplorationScenario("CompositeDisposable", "two removals against a count", seed: 816) { run in
            let calls = CallCount()
            let composite = CompositeDisposable()
            let keys = UnsafeTransfer(["first", "second", "kept"].map { composite.insert(calls.disposable($0)) })
            let counted = LockedBox(0)
            run.thread("one") { keys.value[0].map { composite.remove(for: $0) } }
            run.thread("two") {
                counted.value = composite.count
                keys.value[1].map { composite.remove(for: $0) }
            }
            calls.expect(in: run, ["first", "second"], calledTimes: 1)
            calls.expect(in: run, ["kept"], calledTimes: 0)
            run.expect({ composite.count == 1 && [2, 3].contains(counted.value) }) {
                "\(composite.count) disposables left of three after two removals; counted \(counted.value) before the second"
            }
        },
        ExplorationScenario("CompositeDisposable", "an insertion against isDisposed and a removal", seed: 817) { run in
            let calls = CallCount()
            let composite = CompositeDisposable()
            let key = UnsafeTransfer(composite.insert(calls.disposable("removed")))
            let seen = LockedBox<Bool?>(nil)
            run.thread("inserter") { _ = composite.insert(calls.disposable("inserted")) }
            run.thread("reader") {
                seen.value = composite.isDisposed
                key.value.map { composite.remove(for: $0) }
            }
            calls.expect(in: run, ["removed"], calledTimes: 1)
            calls.expect(in: run, ["inserted"], calledTimes: 0)
            run.expect({ composite.count == 1 && seen.value == false }) {
                "\(composite.count) disposables held after one insertion and one removal; isDisposed read \(String(describing: seen.value))"
            }
        },
        ExplorationScenario("SerialDisposable", "a replacement against dispose", seed: 807) { run in
            let calls = CallCount()
            let serial = SerialDisposable()
            serial.disposable = calls.disposable("first")
            run.thread("replacer") { serial.disposable = calls.disposable("second") }
            run.thread("disposer", disposing: serial)
            calls.expect(in: run, ["first", "second"], calledTimes: 1)
        },
        ExplorationScenario("SerialDisposable", "two replacements", seed: 808) { run in
            let calls = CallCount()
            let serial = SerialDisposable()
            serial.disposable = calls.disposable("first")
            run.thread("one") { serial.disposable = calls.disposable("second") }
            run.thread("two") { serial.disposable = calls.disposable("third") }
            // The one set last is held, every other one disposed; disposing disposes it.
            run.expect({ calls["first"] == 1 && calls["second"] + calls["third"] == 1 }) {
                "disposed first \(calls["first"]), second \(calls["second"]), third \(calls["third"]) times"
            }
            run.check { serial.dispose() }
            calls.expect(in: run, ["first", "second", "third"], calledTimes: 1)
        },
        ExplorationScenario("SingleAssignmentDisposable", "the assignment against dispose", depth: 2, seed: 809) { run in
            let calls = CallCount()
            let single = SingleAssignmentDisposable()
            run.thread("assigner") { single.setDisposable(calls.disposable("assigned")) }
            run.thread("disposer", disposing: single)
            calls.expect(in: run, ["assigned"], calledTimes: 1)
        },
        ExplorationScenario("SingleAssignmentDisposable", "two threads disposing against the assignment", seed: 810) { run in
            let calls = CallCount()
            let single = SingleAssignmentDisposable()
            run.thread("assigner") { single.setDisposable(calls.disposable("assigned")) }
            disposeTwice(single, in: run)
            calls.expect(in: run, ["assigned"], calledTimes: 1)
        },
        ExplorationScenario("RefCountDisposable", "a retained reference's release against the primary dispose", depth: 2, seed: 811) { run in
            let calls = CallCount()
            let refCount = RefCountDisposable(disposable: calls.disposable("underlying"))
            run.thread("releaser", disposing: refCount.retain())
            run.thread("disposer", disposing: refCount)
            calls.expect(in: run, ["underlying"], calledTimes: 1)
        },
        ExplorationScenario("RefCountDisposable", "a retain and release against the primary dispose", seed: 812) { run in
            let calls = CallCount()
            let refCount = RefCountDisposable(disposable: calls.disposable("underlying"))
            let pause = ExplorableLock()
            run.thread("retainer") {
                let retained = refCount.retain()
                // Retained in time (before the primary dispose took the underlying
                // disposable), it keeps the underlying disposable alive until released.
                let held = !refCount.isDisposed
                pause.withLock {}
                if held, calls["underlying"] != 0 { calls.record("disposed while retained") }
                retained.dispose()
            }
            run.thread("disposer", disposing: refCount)
            calls.expect(in: run, ["underlying"], calledTimes: 1)
            calls.expect(in: run, ["disposed while retained"], calledTimes: 0)
        },
        ExplorationScenario("RefCountDisposable", "two threads releasing one reference", seed: 813) { run in
            let calls = CallCount()
            let refCount = RefCountDisposable(disposable: calls.disposable("underlying"))
            let retained = refCount.retain()
            _ = refCount.retain()
            refCount.dispose()
            disposeTwice(retained, in: run)
            // The other reference still holds it: one release counts once.
            calls.expect(in: run, ["underlying"], calledTimes: 0)
        },
        ExplorationScenario("DisposeBag", "two insertions against the bag's release", seed: 814) { run in
            let calls = CallCount()
            let holder = LockedBox<DisposeBag?>(DisposeBag())
            let inserted = LockedBox(Set<String>())
            for name in ["first", "second"] {
                run.thread(name) {
                    guard let bag = holder.value else { return }
                    bag.insert(calls.disposable(name))
                    inserted.mutate { $0.insert(name) }
                }
            }
            run.thread("releaser") {
                // Taken out under the box's lock, released after it: the bag's last
                // release disposes, which takes Rivulet's locks.
                let bag = holder.withLock { bag -> DisposeBag? in
                    defer { bag = nil }
                    return bag
                }
                withExtendedLifetime(bag) {}
            }
            // Once every thread let go of the bag, it disposed what it held, once.
            run.expect({ ["first", "second"].allSatisfy { calls[$0] == (inserted.value.contains($0) ? 1 : 0) } }) {
                "inserted \(inserted.value.sorted()); disposed first \(calls["first"]), second \(calls["second"]) times"
            }
        },
        ExplorationScenario("ScheduledDisposable", "two threads disposing", depth: 2, seed: 815) { run in
            let calls = CallCount()
            let scheduler = serialQueue()
            let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: calls.disposable("scheduled"))
            disposeTwice(scheduled, in: run)
            calls.expect(in: run, ["scheduled"], calledTimes: 1)
        },
    ]

    /// Starts two threads of `run` that both dispose `disposable`.
    private static func disposeTwice(_ disposable: Disposable, in run: ScheduleRun) {
        for name in ["one", "two"] {
            run.thread(name, disposing: disposable)
        }
    }
}
