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
    public static var entries: [GalleryEntry] {
        creating + transforming + filtering + scheduling
    }

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
                   .hot("source", [.next(1, 1), .next(4, 2), .next(7, 3), .completed(9)])) { source, _ in
                source.map { $0 * 10 }
            },
        ]
    }

    static var filtering: [GalleryEntry] {
        [
            .unary("filter", .filtering, "Lets through only the elements that pass a test.",
                   call: "source.filter { $0 % 2 == 0 }",
                   .hot("source", [.next(1, 1), .next(3, 2), .next(5, 3), .next(7, 4), .next(9, 5), .completed(11)])) { source, _ in
                source.filter { $0 % 2 == 0 }
            },
            .unary("take", .filtering, "Emits the first n elements, then completes.",
                   call: "source.take(2)",
                   .hot("source", [.next(1, 1), .next(3, 2), .next(5, 3), .next(7, 4), .completed(9)])) { source, _ in
                source.take(2)
            },
        ]
    }

    static var scheduling: [GalleryEntry] {
        [
            .unary("observeOn", .scheduling, aliases: ["observe(on:)", "observe"],
                   "Delivers the events on a scheduler (a TestScheduler runs work for now one tick later).",
                   call: "source.observe(on: scheduler)",
                   .hot("source", [.next(1, 1), .next(4, 2), .next(6, 3), .completed(8)])) { source, scheduler in
                source.observe(on: scheduler)
            },
            .unary("subscribeOn", .scheduling, aliases: ["subscribe(on:)"],
                   "Subscribes to the source on a scheduler (here one tick later, so a cold source starts later).",
                   call: "source.subscribe(on: scheduler)",
                   .cold("source", [.next(0, 1), .next(3, 2), .next(5, 3), .completed(7)])) { source, scheduler in
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
