import Foundation
import RxCocoa
import RxRelay
import RxSwift
import RxTest
import Testing

/// The metronome example's play/pause and tempo outputs, written against the real main scheduler:
/// the view model takes no scheduler.
private final class MetronomeViewModel {
    let tappedPlayPause = PublishRelay<Void>()
    let tempo = PublishRelay<Int>()
    let isPlaying: Driver<Bool>
    let tempoText: Driver<String>

    init() {
        isPlaying = tappedPlayPause
            .scan(false) { playing, _ in !playing }
            .startWith(false)
            .asDriver(onErrorJustReturn: false)
        tempoText = tempo
            .startWith(120)
            .map { "\($0) BPM" }
            .asDriver(onErrorJustReturn: "")
    }
}

/// Drivers and Signals in virtual time, off the main thread and in parallel, with no
/// `SharingScheduler.mock`.
@Suite("Virtual time: Driver and Signal")
struct VirtualTimeDriverTests {
    @Test("the metronome: tapping play/pause, driven off the main thread at the example's ticks", .virtualTime)
    func tappedPlayPauseChangesIsPlaying() {
        let scheduler = TestScheduler.current
        let viewModel = MetronomeViewModel()
        let disposeBag = DisposeBag()
        let isPlaying = scheduler.createObserver(Bool.self)
        viewModel.isPlaying.drive(isPlaying).disposed(by: disposeBag)
        scheduler.createColdObservable([.next(10, ()), .next(20, ()), .next(30, ())])
            .bind(to: viewModel.tappedPlayPause)
            .disposed(by: disposeBag)
        scheduler.start()
        #expect(isPlaying.events == [.next(0, false), .next(10, true), .next(20, false), .next(30, true)])
    }

    @Test("the metronome: tempo text, once per parallel case", .virtualTime, arguments: [75, 90, 180, 60])
    func tempoText(bpm: Int) {
        let scheduler = TestScheduler.current
        let viewModel = MetronomeViewModel()
        let disposeBag = DisposeBag()
        let tempo = scheduler.createObserver(String.self)
        viewModel.tempoText.drive(tempo).disposed(by: disposeBag)
        scheduler.createColdObservable([.next(bpm / 5, bpm)])
            .bind(to: viewModel.tempo)
            .disposed(by: disposeBag)
        scheduler.start()
        #expect(tempo.events == [.next(0, "120 BPM"), .next(bpm / 5, "\(bpm) BPM")])
    }

    @Test("Driver time operators default to the test's scheduler", .virtualTime)
    func driverTimeOperators() {
        let scheduler = TestScheduler.current
        let res = scheduler.start {
            Driver<Int>.interval(.seconds(20)).asObservable().take(3)
        }
        #expect(res.events == [.next(220, 0), .next(240, 1), .next(260, 2), .completed(260)])

        let input = PublishRelay<String>()
        let debounced = scheduler.createObserver(String.self)
        let disposeBag = DisposeBag()
        input.asDriver(onErrorJustReturn: "").debounce(.seconds(5)).drive(debounced).disposed(by: disposeBag)
        scheduler.scheduleAt(1010) { input.accept("a") }
        scheduler.scheduleAt(1012) { input.accept("ab") }
        scheduler.scheduleAt(1030) { input.accept("abc") }
        scheduler.start()
        #expect(debounced.events == [.next(1017, "ab"), .next(1035, "abc")])
    }

    @Test("Signal.timer runs on the test's scheduler", .virtualTime)
    func signalTimer() {
        let scheduler = TestScheduler.current
        let res = scheduler.start { Signal<Int>.timer(.seconds(7), period: .seconds(3)).asObservable().take(2) }
        #expect(res.events == [.next(207, 0), .next(210, 1), .completed(210)])
    }

    @Test("SharingScheduler.mock inside a virtual-time test still wins", .virtualTime)
    func mockWins() {
        let other = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 1)
        let observer = other.createObserver(Int.self)
        var subscription: Disposable?
        SharingScheduler.mock(scheduler: other) {
            subscription = relay.asDriver().drive(observer)
        }
        // The mock delivers on `other`: nothing until it runs, then one tick later.
        #expect(observer.events == [])
        other.start()
        #expect(observer.events == [.next(1, 1)])
        subscription?.dispose()
        #expect(TestScheduler.current !== other)
    }

    @Test("without virtual time, shared sequences still make a main scheduler")
    func outsideVirtualTime() {
        #expect(SharingScheduler.make() is MainScheduler)
        withVirtualTime { _ in
            #expect(SharingScheduler.make() as AnyObject === MainScheduler.instance)
        }
    }
}
