import RxBlocking
import RxCocoa
import RxSwift
import RxTest
import ExampleViewModels
import XCTest

/// The metronome example: RxBlocking reads Drivers' first values; TestScheduler tests drive the
/// inputs; the beat timer runs on an injected scheduler, and the scheduler's
/// resolution decides the virtual times of the beats.
final class MetronomeTests: XCTestCase {
    var viewModel: MetronomeViewModel!
    var scheduler: TestScheduler!
    var disposeBag: DisposeBag!

    override func setUp() {
        super.setUp()
        viewModel = MetronomeViewModel()
        scheduler = TestScheduler(initialClock: 0)
        disposeBag = DisposeBag()
    }

    // MARK: RxBlocking

    func testNumeratorStartsAt4() throws {
        XCTAssertEqual(try viewModel.numeratorText.toBlocking().first(), "4")
        XCTAssertEqual(try viewModel.numeratorValue.toBlocking().first(), 4)
    }

    func testDenominatorStartsAt4() throws {
        XCTAssertEqual(try viewModel.denominatorText.toBlocking().first(), "4")
    }

    func testSignatureStartsAt4By4() throws {
        XCTAssertEqual(try viewModel.signatureText.toBlocking().first(), "4/4")
    }

    func testTempoStartsAt120() throws {
        XCTAssertEqual(try viewModel.tempoText.toBlocking().first(), "120 BPM")
    }

    // MARK: RxTest

    func testTappedPlayPauseChangesIsPlaying() {
        let isPlaying = scheduler.createObserver(Bool.self)
        viewModel.isPlaying
            .drive(isPlaying)
            .disposed(by: disposeBag)

        scheduler.createColdObservable([.next(10, ()), .next(20, ()), .next(30, ())])
            .bind(to: viewModel.tappedPlayPause)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(isPlaying.events, [
            .next(0, false),
            .next(10, true),
            .next(20, false),
            .next(30, true),
        ])
    }

    func testModifyingNumeratorUpdatesNumeratorText() {
        let numerator = scheduler.createObserver(String.self)
        viewModel.numeratorText
            .drive(numerator)
            .disposed(by: disposeBag)

        scheduler.createColdObservable([.next(10, 3), .next(15, 1)])
            .bind(to: viewModel.steppedNumerator)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(numerator.events, [
            .next(0, "4"),
            .next(10, "3"),
            .next(15, "1"),
        ])
    }

    func testModifyingDenominatorUpdatesNumeratorText() {
        let denominator = scheduler.createObserver(String.self)
        viewModel.denominatorText
            .drive(denominator)
            .disposed(by: disposeBag)

        // The denominator stepper gives 2 to the power of (steps + 1): 1, 2, 3, 4 give 4, 8, 16, 32.
        scheduler.createColdObservable([.next(10, 2), .next(15, 4), .next(20, 3), .next(25, 1)])
            .bind(to: viewModel.steppedDenominator)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(denominator.events, [
            .next(0, "4"),
            .next(10, "8"),
            .next(15, "32"),
            .next(20, "16"),
            .next(25, "4"),
        ])
    }

    func testModifyingTempoUpdatesTempoText() {
        let tempo = scheduler.createObserver(String.self)
        viewModel.tempoText
            .drive(tempo)
            .disposed(by: disposeBag)

        scheduler.createColdObservable([.next(10, 75), .next(15, 90), .next(20, 180), .next(25, 60)])
            .bind(to: viewModel.tempo)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(tempo.events, [
            .next(0, "120 BPM"),
            .next(10, "75 BPM"),
            .next(15, "90 BPM"),
            .next(20, "180 BPM"),
            .next(25, "60 BPM"),
        ])
    }

    func testModifyingSignatureUpdatesSignatureText() {
        let signature = scheduler.createObserver(String.self)
        viewModel.signatureText
            .drive(signature)
            .disposed(by: disposeBag)

        scheduler.createColdObservable([
            .next(5, 3), .next(10, 1),
            .next(20, 5), .next(25, 7),
            .next(35, 12),
            .next(45, 24), .next(50, 32),
        ])
        .bind(to: viewModel.steppedNumerator)
        .disposed(by: disposeBag)

        scheduler.createColdObservable([
            .next(15, 2),  // eighths
            .next(30, 3),  // sixteenths
            .next(40, 4),  // thirty-seconds
        ])
        .bind(to: viewModel.steppedDenominator)
        .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(signature.events, [
            .next(0, "4/4"),
            .next(5, "3/4"),
            .next(10, "1/4"),
            .next(15, "1/8"),
            .next(20, "5/8"),
            .next(25, "7/8"),
            .next(30, "7/16"),
            .next(35, "12/16"),
            .next(40, "12/32"),
            .next(45, "24/32"),
            .next(50, "32/32"),
        ])
    }

    func testModifyingDenominatorUpdatesNumeratorValueIfExceedsMaximum() {
        let numerator = scheduler.createObserver(Double.self)
        viewModel.numeratorValue
            .drive(numerator)
            .disposed(by: disposeBag)

        scheduler.createColdObservable([
            .next(5, 4),   // thirty-seconds
            .next(15, 3),  // sixteenths
            .next(20, 2),  // eighths
            .next(25, 1),  // quarters
        ])
        .bind(to: viewModel.steppedDenominator)
        .disposed(by: disposeBag)

        scheduler.createColdObservable([.next(10, 24)])
            .bind(to: viewModel.steppedNumerator)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(numerator.events, [
            .next(0, 4),   // 4/4
            .next(10, 24), // 24/32
            .next(15, 16), // 16/16
            .next(20, 8),  // 8/8
            .next(25, 4),  // 4/4
        ])
    }

    // MARK: The beat, on an injected scheduler

    func testBeatBy32() {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.01)
        viewModel = MetronomeViewModel(initialMeter: Meter(signature: "4/32"), autoplay: true, beatScheduler: scheduler)

        let beat = scheduler.createObserver(Beat.self)
        viewModel.beat.asObservable()
            .take(8)
            .bind(to: beat)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(beat.events, [
            .next(6, .first),
            .next(12, .regular),
            .next(18, .regular),
            .next(24, .regular),
            .next(30, .first),
            .next(36, .regular),
            .next(42, .regular),
            .next(48, .regular),
            .completed(48),
        ])
    }

    func testBeatAtTheDefaultResolutionTicksEveryTick() {
        viewModel = MetronomeViewModel(initialMeter: Meter(signature: "4/32"), autoplay: true, beatScheduler: scheduler)
        let beat = scheduler.createObserver(Beat.self)
        viewModel.beat.asObservable().take(8).bind(to: beat).disposed(by: disposeBag)
        scheduler.start()
        // 0.0625 s rounds to 0 ticks at a resolution of 1 s; work due now runs one tick later.
        XCTAssertEqual(beat.events.map(\.time), [1, 2, 3, 4, 5, 6, 7, 8, 8])
    }

    func testBeatBy4() {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        viewModel = MetronomeViewModel(initialMeter: Meter(signature: "4/4"), autoplay: true, beatScheduler: scheduler)

        let beat = scheduler.createObserver(Beat.self)
        viewModel.beat.asObservable()
            .take(8)
            .bind(to: beat)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(beat.events, [
            .next(5, .first),
            .next(10, .regular),
            .next(15, .regular),
            .next(20, .regular),
            .next(25, .first),
            .next(30, .regular),
            .next(35, .regular),
            .next(40, .regular),
            .completed(40),
        ])
    }

    func testBeatTypeAlternates() {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        viewModel = MetronomeViewModel(initialMeter: Meter(signature: "4/4"), autoplay: true, beatScheduler: scheduler)

        let beatType = scheduler.createObserver(BeatType.self)
        viewModel.beatType.asObservable()
            .take(8)
            .bind(to: beatType)
            .disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(beatType.events, [
            .next(5, .even),
            .next(10, .odd),
            .next(15, .even),
            .next(20, .odd),
            .next(25, .even),
            .next(30, .odd),
            .next(35, .even),
            .next(40, .odd),
            .completed(40),
        ])
    }
}
