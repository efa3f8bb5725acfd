import RxSwift
import RxTestCore

// The examples of the gallery. Each one is a few lines: a name, a family, a one-line
// summary, the call as the user would write it, the default inputs (virtual time: one
// tick per frame), and the code that applies the real operator. The output is never
// written down: it is recorded by running the operator on a TestScheduler.
//
// `call` must say what `make` does: it is the label of the output.

extension Gallery {
    /// Every example, in display order.
    public static var entries: [GalleryEntry] { allEntries }

    /// Built once: each entry parses its default marbles when it is made.
    private static let allEntries: [GalleryEntry] =
        creating + transforming + higherOrder.filter { $0.family == .transforming } + filtering + combining
            + higherOrder.filter { $0.family == .combining } + timing + errors + sharing + scheduling

    static var creating: [GalleryEntry] {
        [
            .source("just", .creating, "Emits one element, then completes.",
                    call: "Observable.just(1)") { _ in
                Observable.just(1)
            },
            .source("of", .creating, "Emits the given elements, then completes.",
                    call: "Observable.of(1, 2, 3)") { _ in
                Observable.of(1, 2, 3)
            },
            .source("from", .creating, "Emits the elements of an array on a scheduler, one per step.",
                    call: "Observable.from([1, 2, 3], scheduler: scheduler)") { scheduler in
                Observable.from([1, 2, 3], scheduler: scheduler)
            },
            .source("range", .creating, "Emits a range of integers, then completes.",
                    call: "Observable.range(start: 1, count: 4)") { _ in
                Observable.range(start: 1, count: 4)
            },
            .source("interval", .creating, "Emits 0, 1, 2, ... once every period.",
                    call: "Observable<Int>.interval(.seconds(3), scheduler: scheduler)", horizon: 14) { scheduler in
                Observable<Int>.interval(.seconds(3), scheduler: scheduler)
            },
            .source("timer", .creating, "Emits 0 after a delay, then completes.",
                    call: "Observable<Int>.timer(.seconds(4), scheduler: scheduler)") { scheduler in
                Observable<Int>.timer(.seconds(4), scheduler: scheduler)
            },
            .source("empty", .creating, "Completes at once without elements.",
                    call: "Observable<Int>.empty()", horizon: 6) { _ in
                Observable<Int>.empty()
            },
            .source("never", .creating, "Never emits anything, not even completion.",
                    call: "Observable<Int>.never()", horizon: 8) { _ in
                Observable<Int>.never()
            },
            .source("error", .creating, aliases: ["throw"], "Fails at once with an error.",
                    call: "Observable<Int>.error(ExampleError())", horizon: 6) { _ in
                Observable<Int>.error(ExampleError())
            },
        ]
    }

    static var transforming: [GalleryEntry] {
        [
            .unary("map", .transforming, "Transforms each element with a closure.",
                   call: "source.map { $0 * 10 }",
                   .hot("source", "-1--2--3-|")) { source, _ in
                source.map { $0 * 10 }
            },
            .unary("scan", .transforming, "Emits each step of an accumulation from a seed.",
                   call: "source.scan(0) { $0 + $1 }",
                   .hot("source", "-1--2--3-|")) { source, _ in
                source.scan(0) { $0 + $1 }
            },
            .unary("reduce", .transforming, "Emits the final accumulation when the source completes.",
                   call: "source.reduce(0) { $0 + $1 }",
                   .hot("source", "-1--2--3-|")) { source, _ in
                source.reduce(0) { $0 + $1 }
            },
            .unary("compactMap", .transforming, "Transforms each element and drops the nil results.",
                   call: "source.compactMap { Int($0) }",
                   .hotStrings("source", "-1-a-2-b-3-|")) { (source: TestableObservable<String>, _) in
                source.compactMap { Int($0) }
            },
        ]
    }

    static var filtering: [GalleryEntry] {
        [
            .unary("filter", .filtering, "Lets through only the elements that pass a test.",
                   call: "source.filter { $0 % 2 == 0 }",
                   .hot("source", "-1-2-3-4-5-|")) { source, _ in
                source.filter { $0 % 2 == 0 }
            },
            .unary("take", .filtering, "Emits the first n elements, then completes.",
                   call: "source.take(2)",
                   .hot("source", "-1-2-3-4-|")) { source, _ in
                source.take(2)
            },
            .unary("skip", .filtering, "Drops the first n elements.",
                   call: "source.skip(2)",
                   .hot("source", "-1-2-3-4-|")) { source, _ in
                source.skip(2)
            },
            .unary("distinctUntilChanged", .filtering, "Drops elements equal to the one before.",
                   call: "source.distinctUntilChanged()",
                   .hot("source", "-1-1-2-2-1-3-|")) { source, _ in
                source.distinctUntilChanged()
            },
            .unary("takeWhile", .filtering, aliases: ["take(while:)"], "Emits elements while they pass a test, then completes.",
                   call: "source.take(while: { $0 < 3 })",
                   .hot("source", "-1-2-3-1-|")) { source, _ in
                source.take(while: { $0 < 3 })
            },
            .unary("skipWhile", .filtering, aliases: ["skip(while:)"], "Drops elements while they pass a test, then lets all through.",
                   call: "source.skip(while: { $0 < 3 })",
                   .hot("source", "-1-2-3-1-|")) { source, _ in
                source.skip(while: { $0 < 3 })
            },
            .unary("takeLast", .filtering, "Emits the last n elements when the source completes.",
                   call: "source.takeLast(2)",
                   .hot("source", "-1-2-3-4-|")) { source, _ in
                source.takeLast(2)
            },
            .unary("elementAt", .filtering, aliases: ["element(at:)"], "Emits only the element at an index, then completes.",
                   call: "source.element(at: 2)",
                   .hot("source", "-1-2-3-4-|")) { source, _ in
                source.element(at: 2)
            },
            .unary("ignoreElements", .filtering, "Drops every element; keeps completion or error.",
                   call: "source.ignoreElements()",
                   .hot("source", "-1-2-3-|")) { source, _ in
                source.ignoreElements()
            },
            .binary("takeUntil", .filtering, aliases: ["take(until:)"], "Emits elements until another sequence emits, then completes.",
                    call: "source.take(until: other)",
                    .hot("source", "-1-2-3-4-|"), .hotStrings("other", "------x-|")) { (source: TestableObservable<Int>, other: TestableObservable<String>, _) in
                source.take(until: other)
            },
            .binary("skipUntil", .filtering, aliases: ["skip(until:)"], "Drops elements until another sequence emits.",
                    call: "source.skip(until: other)",
                    .hot("source", "-1-2-3-4-|"), .hotStrings("other", "----x-|")) { (source: TestableObservable<Int>, other: TestableObservable<String>, _) in
                source.skip(until: other)
            },
        ]
    }

    static var combining: [GalleryEntry] {
        [
            .unary("startWith", .combining, "Emits the given elements first, then the source's.",
                   call: "source.startWith(0)",
                   .hot("source", "---1--2-|")) { source, _ in
                source.startWith(0)
            },
            .binary("combineLatest", .combining, "Combines the latest element of each input whenever any of them emits.",
                    call: "Observable.combineLatest(a, b) { \"\\($0)\\($1)\" }",
                    .hotStrings("a", "-1--2---3|"), .hotStrings("b", "--a--b|")) { (a: TestableObservable<String>, b: TestableObservable<String>, _) in
                Observable.combineLatest(a, b) { "\($0)\($1)" }
            },
            .binary("zip", .combining, "Pairs the inputs' elements by index.",
                    call: "Observable.zip(a, b) { \"\\($0)\\($1)\" }",
                    .hotStrings("a", "-1--2---3-|"), .hotStrings("b", "--a--b-c-|")) { (a: TestableObservable<String>, b: TestableObservable<String>, _) in
                Observable.zip(a, b) { "\($0)\($1)" }
            },
            GalleryEntry.variadic("merge", .combining, "Passes on the elements of all inputs as they arrive; completes when all have.",
                                  call: "Observable.merge(a, b)",
                                  [.hot("a", "-1---3---|"), .hot("b", "---2---4----|")]) { inputs, _ in
                Observable.merge(inputs.map { $0.asObservable() })
            }.showingSubscriptions().written(as: ["Observable.merge([{inputs}].map { $0.asObservable() })"]),
            GalleryEntry.variadic("concat", .combining, "Subscribes to each input only after the one before it completed.",
                                  call: "Observable.concat(a, b)",
                                  [.cold("a", "-1-2|"), .cold("b", "-3--4|")]) { inputs, _ in
                Observable.concat(inputs.map { $0.asObservable() })
            }.showingSubscriptions().written(as: ["Observable.concat([{inputs}].map { $0.asObservable() })"]),
            GalleryEntry.binary("withLatestFrom", .combining, "Combines each element with the latest element of another input, if it has one.",
                                call: "source.withLatestFrom(other) { \"\\($0)\\($1)\" }",
                                .hot("source", "-1---2---3-|"), .hotStrings("other", "---a---b-|")) { (source: TestableObservable<Int>, other: TestableObservable<String>, _) in
                source.withLatestFrom(other) { "\($0)\($1)" }
            },
            GalleryEntry.variadic("amb", .combining, "Mirrors the input that emits first and drops the others.",
                                  call: "Observable.amb([a, b])",
                                  [.hot("a", "---1-2-|"), .hot("b", "-7-8-9|")]) { inputs, _ in
                Observable.amb(inputs.map { $0.asObservable() })
            }.showingSubscriptions().written(as: ["Observable.amb([{inputs}].map { $0.asObservable() })"]),
        ]
    }

    /// The higher-order examples share their inputs: a hot source whose keys name the
    /// cold inner stream to use (`a` or `b`), drawn as extra input rows with the
    /// subscriptions the operator made to them.
    static var higherOrder: [GalleryEntry] {
        let source = InputSpec.hotKeys("source", "-a--b-----a---|", keys: ["a", "b"])
        let a = InputSpec.cold("a", "-1---2|")
        let b = InputSpec.cold("b", "-3--4|")
        @Sendable func pick(_ key: String, _ a: TestableObservable<Int>, _ b: TestableObservable<Int>) -> Observable<Int> {
            key == "a" ? a.asObservable() : b.asObservable()
        }
        return [
            GalleryEntry.ternary("flatMap", .transforming, aliases: ["mergeMap"], "Maps each element to an inner stream and merges all of them.",
                                 call: "source.flatMap { $0 == \"a\" ? a : b }",
                                 source, a, b) { source, a, b, _ in
                source.flatMap { pick($0, a, b) }
            }.showingSubscriptions(),
            GalleryEntry.ternary("flatMapLatest", .transforming, aliases: ["switchMap"], "Maps each element to an inner stream and mirrors only the latest one.",
                                 call: "source.flatMapLatest { $0 == \"a\" ? a : b }",
                                 source, a, b) { source, a, b, _ in
                source.flatMapLatest { pick($0, a, b) }
            }.showingSubscriptions(),
            GalleryEntry.ternary("flatMapFirst", .transforming, aliases: ["exhaustMap"], "Maps an element to an inner stream only while none runs; drops the others.",
                                 call: "source.flatMapFirst { $0 == \"a\" ? a : b }",
                                 source, a, b) { source, a, b, _ in
                source.flatMapFirst { pick($0, a, b) }
            }.showingSubscriptions(),
            GalleryEntry.ternary("concatMap", .transforming, "Maps each element to an inner stream and runs them one after another.",
                                 call: "source.concatMap { $0 == \"a\" ? a : b }",
                                 source, a, b) { source, a, b, _ in
                source.concatMap { pick($0, a, b) }
            }.showingSubscriptions(),
            GalleryEntry.ternary("switchLatest", .combining, "Mirrors the latest inner stream of a stream of streams.",
                                 call: "source.map { $0 == \"a\" ? a : b }.switchLatest()",
                                 source, a, b) { source, a, b, _ in
                source.map { pick($0, a, b) }.switchLatest()
            }.showingSubscriptions(),
        ]
    }

    static var timing: [GalleryEntry] {
        [
            .unary("debounce", .timing, "Emits an element only after a quiet period without another.",
                   call: "source.debounce(.seconds(2), scheduler: scheduler)",
                   .hot("source", "-1--23---4-|")) { source, scheduler in
                source.debounce(.seconds(2), scheduler: scheduler)
            },
            .unary("throttle", .timing, "Emits at most one element per period (the first, and the latest at its end).",
                   call: "source.throttle(.seconds(3), scheduler: scheduler)",
                   .hot("source", "-12-3----45---|")) { source, scheduler in
                source.throttle(.seconds(3), scheduler: scheduler)
            },
            .binary("sample", .timing, "Emits the source's latest element whenever the sampler emits, if there is a new one.",
                    call: "source.sample(sampler)",
                    .hot("source", "-1-2---3-4--|"), .hotStrings("sampler", "---x--x--x--x|")) { (source: TestableObservable<Int>, sampler: TestableObservable<String>, _) in
                source.sample(sampler)
            },
            .unary("delay", .timing, "Shifts every element later by a delay.",
                   call: "source.delay(.seconds(2), scheduler: scheduler)",
                   .hot("source", "-1--2-3-|")) { source, scheduler in
                source.delay(.seconds(2), scheduler: scheduler)
            },
            .unary("delaySubscription", .timing, "Subscribes to the source only after a delay.",
                   call: "source.delaySubscription(.seconds(3), scheduler: scheduler)",
                   .cold("source", "1-2-|")) { source, scheduler in
                source.delaySubscription(.seconds(3), scheduler: scheduler)
            },
            .unary("buffer", .timing, "Collects elements into arrays, emitted when full or when the time span ends.",
                   call: "source.buffer(timeSpan: .seconds(5), count: 2, scheduler: scheduler)",
                   .hot("source", "-12--3------|")) { source, scheduler in
                source.buffer(timeSpan: .seconds(5), count: 2, scheduler: scheduler)
            },
            .unary("timeout", .timing, "Fails when no element arrives within a time after the previous one.",
                   call: "source.timeout(.seconds(3), scheduler: scheduler)",
                   .hot("source", "-1-2-----3|")) { source, scheduler in
                source.timeout(.seconds(3), scheduler: scheduler)
            },
            .unary("takeFor", .timing, aliases: ["take(for:)"], "Emits elements for a duration, then completes.",
                   call: "source.take(for: .seconds(5), scheduler: scheduler)",
                   .hot("source", "-1-2-3-4-|")) { source, scheduler in
                source.take(for: .seconds(5), scheduler: scheduler)
            },
        ]
    }

    static var errors: [GalleryEntry] {
        [
            .binary("catch", .errors, aliases: ["catchError"], "Replaces an error with a fallback sequence.",
                    call: "source.catch { _ in fallback.asObservable() }",
                    .hot("source", "-1-2-#"), .cold("fallback", "7-8|")) { (source: TestableObservable<Int>, fallback: TestableObservable<Int>, _) in
                source.catch { _ in fallback.asObservable() }
            },
            .unary("catchAndReturn", .errors, aliases: ["catchErrorJustReturn"], "Replaces an error with one element and completion.",
                   call: "source.catchAndReturn(0)",
                   .hot("source", "-1-2-#")) { source, _ in
                source.catchAndReturn(0)
            },
            .unary("retry", .errors, "Subscribes again after an error, up to a number of attempts in all.",
                   call: "source.retry(2)",
                   .cold("source", "-1-2-#")) { source, _ in
                source.retry(2)
            },
        ]
    }

    static var sharing: [GalleryEntry] {
        [
            GalleryEntry.unary("share", .sharing, "Shares one subscription to the source among all subscribers (see the source's single ^...!).",
                   call: "let shared = source.share(); Observable.zip(shared, shared.skip(1)) { \"\\($0)\\($1)\" }",
                   .cold("source", "-1-2-3-|")) { source, _ in
                let shared = source.share()
                return Observable.zip(shared, shared.skip(1)) { "\($0)\($1)" }
            }.showingSubscriptions(),
            GalleryEntry.unary("publish", .sharing, aliases: ["connect"], "Subscribes to the source only when connect() is called, and shares that one subscription.",
                   call: "source.publish(), connected at 3",
                   .cold("source", "-1-2-3-|")) { source, scheduler in
                let published = source.publish()
                scheduler.scheduleAt(3) { _ = published.connect() }
                return published.asObservable()
            }.showingSubscriptions().written(as: [
                "let published = source.publish()",
                "scheduler.scheduleAt(3) { _ = published.connect() }",
                "published.asObservable()",
            ]),
        ]
    }

    static var scheduling: [GalleryEntry] {
        [
            .unary("observeOn", .scheduling, aliases: ["observe(on:)", "observe"],
                   "Delivers the events on a scheduler (a TestScheduler runs work for now one tick later).",
                   call: "source.observe(on: scheduler)",
                   .hot("source", "-1--2-3-|")) { source, scheduler in
                source.observe(on: scheduler)
            },
            .unary("subscribeOn", .scheduling, aliases: ["subscribe(on:)"],
                   "Subscribes to the source on a scheduler (here one tick later, so a cold source starts later).",
                   call: "source.subscribe(on: scheduler)",
                   .cold("source", "1--2-3-|")) { source, scheduler in
                source.subscribe(on: scheduler)
            },
        ]
    }
}

/// The examples, and finding one by name.
public enum Gallery {
    /// The entry called `name` (or with that alias), ignoring case.
    public static func entry(named name: String) -> GalleryEntry? {
        let wanted = name.lowercased()
        return entries.first { entry in
            entry.name.lowercased() == wanted || entry.aliases.contains { $0.lowercased() == wanted }
        }
    }

    /// The names of all entries, in display order.
    public static var names: [String] {
        entries.map(\.name)
    }
}
