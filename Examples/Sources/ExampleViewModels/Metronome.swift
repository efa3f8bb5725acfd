import Foundation
import RxCocoa
import RxRelay
import RxSwift

/// A time signature such as 4/4.
public struct Meter: Equatable, Sendable {
    public let numerator: Int
    public let denominator: Int

    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Parses "4/4"; an unreadable signature stops with a message naming it.
    public init(signature: String) {
        let parts = signature.split(separator: "/").compactMap { Int($0) }
        precondition(parts.count == 2, "Meter(signature:) expects \"numerator/denominator\", got \"\(signature)\"")
        self.init(numerator: parts[0], denominator: parts[1])
    }
}

/// A tick of the metronome: the first beat of a bar or another one.
public enum Beat: Equatable, Sendable {
    case first
    case regular
}

/// Alternates every beat, for the view's blinking.
public enum BeatType: Equatable, Sendable {
    case even
    case odd
}

/// The metronome's view model: steppers and a play button in; texts, the
/// numerator's value, the playing state and the beats out. The beat timer runs on an
/// injected scheduler, so tests drive it in virtual time.
public final class MetronomeViewModel {
    // Inputs.
    public let steppedNumerator = PublishRelay<Double>()
    public let steppedDenominator = PublishRelay<Double>()
    public let tempo = PublishRelay<Double>()
    public let tappedPlayPause = PublishRelay<Void>()

    // Outputs.
    public let numeratorText: Driver<String>
    public let denominatorText: Driver<String>
    public let signatureText: Driver<String>
    public let tempoText: Driver<String>
    public let numeratorValue: Driver<Double>
    public let isPlaying: Driver<Bool>
    public let beat: Driver<Beat>
    public let beatType: Driver<BeatType>

    public init(
        initialMeter: Meter = Meter(signature: "4/4"),
        initialTempo: Double = 120,
        autoplay: Bool = false,
        beatScheduler: SchedulerType = SerialDispatchQueueScheduler(qos: .userInitiated)
    ) {
        // The denominator stepper moves through powers of two: 1, 2, 3, 4 give 4, 8, 16, 32.
        let denominator = steppedDenominator
            .map { Int(pow(2, $0 + 1)) }
            .startWith(initialMeter.denominator)
            .distinctUntilChanged()
            .share(replay: 1)

        // The numerator may not exceed the denominator.
        let numerator = Observable.combineLatest(
            steppedNumerator.map { Int($0) }.startWith(initialMeter.numerator),
            denominator
        ) { Swift.min($0, $1) }
            .distinctUntilChanged()
            .share(replay: 1)

        let tempoValue = tempo.map { Int($0) }.startWith(Int(initialTempo)).share(replay: 1)

        numeratorValue = numerator.map(Double.init).asDriver(onErrorJustReturn: 0)
        numeratorText = numerator.map { "\($0)" }.asDriver(onErrorJustReturn: "")
        denominatorText = denominator.map { "\($0)" }.asDriver(onErrorJustReturn: "")
        signatureText = Observable.combineLatest(numerator, denominator) { "\($0)/\($1)" }
            .asDriver(onErrorJustReturn: "")
        tempoText = tempoValue.map { "\($0) BPM" }.asDriver(onErrorJustReturn: "")

        let playing = tappedPlayPause
            .scan(autoplay) { isPlaying, _ in !isPlaying }
            .startWith(autoplay)
            .share(replay: 1)
        isPlaying = playing.asDriver(onErrorJustReturn: false)

        // A beat lasts a quarter note at the tempo, scaled to the denominator's note value.
        let beats = Observable.combineLatest(playing, numerator, denominator, tempoValue)
            .flatMapLatest { isPlaying, numerator, denominator, tempo -> Observable<Int> in
                guard isPlaying else { return .empty() }
                let seconds = 60.0 / Double(tempo) * 4.0 / Double(denominator)
                return Observable<Int>.interval(.nanoseconds(Int(seconds * 1_000_000_000)), scheduler: beatScheduler)
                    .map { $0 % numerator }
            }
            .share()

        beat = beats.map { $0 == 0 ? Beat.first : Beat.regular }.asDriver(onErrorJustReturn: .regular)
        beatType = beats
            .scan(BeatType.odd) { previous, _ in previous == .even ? .odd : .even }
            .asDriver(onErrorJustReturn: .even)
    }
}
