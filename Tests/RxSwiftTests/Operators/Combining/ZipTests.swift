import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

/// The four spellings of a two-source zip.
enum ZipForm: String, CaseIterable, Sendable {
    case resultSelector, tuple, collectionSelector, collectionArray

    func zip(_ first: TestableObservable<Int>, _ second: TestableObservable<Int>) -> Observable<Int> {
        switch self {
        case .resultSelector: Observable.zip(first, second) { $0 + $1 }
        case .tuple: Observable.zip(first, second).map { $0 + $1 }
        case .collectionSelector: Observable.zip([first, second]) { $0.reduce(0, +) }
        case .collectionArray: Observable.zip([first, second]).map { $0.reduce(0, +) }
        }
    }

    var isCollection: Bool { self == .collectionSelector || self == .collectionArray }
}

@Suite("zip", .rxLeakCheck)
struct ZipTests {
    @Test("a never-ending source and an empty one never emit", arguments: ZipForm.allCases)
    func neverEmpty(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let n = scheduler.createHotObservable([.next(150, 1)])
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { form.zip(n, e) }
        #expect(res.events == [])
        #expect(n.subscriptions == [Subscription(200, 1000)])
        #expect(e.subscriptions == [Subscription(200, 210)])
    }

    @Test("an empty source and one with an element complete when both are done", arguments: ZipForm.allCases)
    func emptyNonEmpty(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { form.zip(e, o) }
        // The collection form completes at the element (every other source is done); the
        // fixed arities wait for the last completion, as in RxSwift.
        #expect(res.events == [.completed(form.isCollection ? 215 : 220)])
        #expect(e.subscriptions == [Subscription(200, 210)])
        #expect(o.subscriptions == [Subscription(200, form.isCollection ? 215 : 220)])
    }

    @Test("one element each zips, completion waits for both", arguments: ZipForm.allCases)
    func nonEmptyNonEmpty(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
        let res = scheduler.start { form.zip(o1, o2) }
        #expect(res.events == [.next(220, 2 + 3), .completed(240)])
        #expect(o1.subscriptions == [Subscription(200, 230)])
        #expect(o2.subscriptions == [Subscription(200, 240)])
    }

    @Test("an error ends it and disposes both sources", arguments: ZipForm.allCases)
    func emptyError(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
        let res = scheduler.start { form.zip(o1, o2) }
        #expect(res.events == [.error(220, testError)])
        #expect(o1.subscriptions == [Subscription(200, 220)])
        #expect(o2.subscriptions == [Subscription(200, 220)])
    }

    @Test("the first of two errors wins", arguments: ZipForm.allCases)
    func errorError(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .error(230, TestError(code: 2))])
        let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, TestError(code: 3))])
        let res = scheduler.start { form.zip(o2, o1) }
        #expect(res.events == [.error(220, TestError(code: 3))])
        #expect(o1.subscriptions == [Subscription(200, 220)])
        #expect(o2.subscriptions == [Subscription(200, 220)])
    }

    @Test("an error with elements waiting", arguments: ZipForm.allCases)
    func someError(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, TestError(code: 2))])
        let res = scheduler.start { form.zip(o1, o2) }
        #expect(res.events == [.error(220, TestError(code: 2))])
        #expect(o1.subscriptions == [Subscription(200, 220)])
        #expect(o2.subscriptions == [Subscription(200, 220)])
    }

    @Test("the left source completing first", arguments: ZipForm.allCases)
    func leftCompletesFirst(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
        let res = scheduler.start { form.zip(o1, o2) }
        #expect(res.events == [.next(215, 2 + 4), .completed(225)])
        #expect(o1.subscriptions == [Subscription(200, 220)])
        #expect(o2.subscriptions == [Subscription(200, 225)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let p1 = scheduler2.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
        let p2 = scheduler2.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
        let swapped = scheduler2.start { form.zip(p2, p1) }
        #expect(swapped.events == [.next(215, 2 + 4), .completed(225)])
    }

    @Test("a throwing selector ends the sequence with its error")
    func selectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(220)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(210, 4)])
        let res = scheduler.start { Observable.zip(o1, o2) { _, _ throws -> Int in throw testError } }
        #expect(res.events == [.error(220, testError)])
        #expect(o1.subscriptions == [Subscription(200, 220)])
        #expect(o2.subscriptions == [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let p1 = scheduler2.createHotObservable([.next(150, 1), .next(220, 2), .completed(220)])
        let p2 = scheduler2.createHotObservable([.next(150, 1), .next(210, 4)])
        let collection = scheduler2.start { Observable.zip([p1, p2]) { _ throws -> Int in throw testError } }
        #expect(collection.events == [.error(220, testError)])
    }

    @Test("elements queue up until every source has one")
    func queuesElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let fast = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let slow = scheduler.createHotObservable([.next(300, "a"), .next(310, "b"), .next(320, "c"), .next(330, "d"), .completed(400)])
        let res = scheduler.start { Observable.zip(fast, slow).map { "\($0)\($1)" } }
        #expect(res.events == [.next(300, "1a"), .next(310, "2b"), .next(320, "3c"), .completed(400)])
        #expect(fast.subscriptions == [Subscription(200, 240)])
        #expect(slow.subscriptions == [Subscription(200, 400)])
    }

    @Test("all completed: the fixed arity waits for the last source, the collection does not")
    func allCompleted() {
        for collection in [false, true] {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .completed(220)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .next(220, 6), .completed(230)])
            let res = scheduler.start {
                collection ? Observable.zip([e0, e1]) { $0.reduce(0, +) } : Observable.zip(e0, e1) { $0 + $1 }
            }
            #expect(res.events == [.next(210, 10), .completed(collection ? 220 : 230)])
            #expect(e0.subscriptions == [Subscription(200, 220)])
            #expect(e1.subscriptions == [Subscription(200, collection ? 220 : 230)])
        }
    }

    @Test("disposal before completion stops everything", arguments: ZipForm.allCases)
    func disposedEarly(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let o2 = scheduler.createHotObservable([.next(220, 10), .next(250, 20), .completed(300)])
        let res = scheduler.start(disposed: 240) { form.zip(o1, o2) }
        #expect(res.events == [.next(220, 11)])
        #expect(o1.subscriptions == [Subscription(200, 240)])
        #expect(o2.subscriptions == [Subscription(200, 240)])
    }

    @Test("cold sources start at the subscription", arguments: ZipForm.allCases)
    func coldSources(form: ZipForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let o2 = scheduler.createColdObservable([.next(15, 10), .next(40, 20), .completed(50)])
        let res = scheduler.start { form.zip(o1, o2) }
        #expect(res.events == [.next(215, 11), .next(240, 22), .completed(250)])
        #expect(o1.subscriptions == [Subscription(200, 230)])
        #expect(o2.subscriptions == [Subscription(200, 250)])
    }

    @Test("synchronous sources zip at subscription")
    func immediateSources() throws {
        #expect(try Observable.zip(Observable.just(1), Observable.just(2)) { $0 + $1 }.toBlocking(timeout: 5).toArray() == [3])
        #expect(try Observable.zip(Observable.of(1, 2, 3), Observable.of(10, 20)).map { $0 + $1 }
            .toBlocking(timeout: 5).toArray() == [11, 22])
    }

    // MARK: collections

    @Test("an empty collection completes at once")
    func emptyCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.zip([Observable<Int>]()) { $0.count } }
        #expect(res.events == [.completed(200)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let arrays = scheduler2.start { Observable<Int>.zip([Observable<Int>]()).map(\.count) }
        #expect(arrays.events == [.completed(200)])
    }

    @Test("three asymmetric sources in a collection")
    func collectionAsymmetric() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(270)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410),
        ])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300)])
        let res = scheduler.start { Observable.zip([e0, e1, e2]) }
        #expect(res.events.map(\.time) == [230, 260, 310])
        #expect(res.events.compactMap(\.value.element) == [[1, 2, 3], [4, 5, 6]])
        #expect(res.events.last?.value.isCompleted == true)
        #expect(e0.subscriptions == [Subscription(200, 270)])
        #expect(e1.subscriptions == [Subscription(200, 310)])
        #expect(e2.subscriptions == [Subscription(200, 300)])
    }

    @Test("one error among four collection sources")
    func collectionAtLeastOneErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(400)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .error(230, testError)])
        let e3 = scheduler.createHotObservable([.next(150, 1), .next(240, 4), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2, e3]) { _ in 42 } }
        #expect(res.events == [.error(230, testError)])
        for source in [e0, e1, e2, e3] {
            #expect(source.subscriptions == [Subscription(200, 230)])
        }
    }

    // MARK: arities 3 to 8

    @Test("every arity from 3 to 8 pairs elements by position", arguments: 3...8)
    func arities(count: Int) {
        for tupleForm in [false, true] {
            let scheduler = TestScheduler(initialClock: 0)
            // Source i emits (i + 1) and 10 * (i + 1), then completes at 400 + 10 * i.
            let s = (0..<count).map { index in
                scheduler.createHotObservable([
                    .next(210 + 5 * index, index + 1),
                    .next(300 + 5 * index, 10 * (index + 1)),
                    .completed(400 + 10 * index),
                ])
            }
            let res = scheduler.start { () -> Observable<Int> in
                switch (count, tupleForm) {
                case (3, false): Observable.zip(s[0], s[1], s[2]) { $0 + $1 + $2 }
                case (3, true): Observable.zip(s[0], s[1], s[2]).map { $0 + $1 + $2 }
                case (4, false): Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
                case (4, true): Observable.zip(s[0], s[1], s[2], s[3]).map { $0 + $1 + $2 + $3 }
                case (5, false): Observable.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
                case (5, true): Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { $0 + $1 + $2 + $3 + $4 }
                case (6, false): Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { a, b, c, d, e, f in a + b + c + d + e + f }
                case (6, true): Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { a, b, c, d, e, f in a + b + c + d + e + f }
                case (7, false):
                    Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { a, b, c, d, e, f, g in a + b + c + d + e + f + g }
                case (7, true):
                    Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { a, b, c, d, e, f, g in a + b + c + d + e + f + g }
                case (8, false):
                    Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { a, b, c, d, e, f, g, h in
                        a + b + c + d + e + f + g + h
                    }
                default:
                    Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { a, b, c, d, e, f, g, h in
                        a + b + c + d + e + f + g + h
                    }
                }
            }
            let sum = (1...count).reduce(0, +)
            #expect(res.events == [
                .next(210 + 5 * (count - 1), sum),
                .next(300 + 5 * (count - 1), 10 * sum),
                .completed(400 + 10 * (count - 1)),
            ], "arity \(count), tuple form: \(tupleForm)")
            for (index, source) in s.enumerated() {
                #expect(source.subscriptions == [Subscription(200, 400 + 10 * index)])
            }
        }
    }

    @Test("the last argument of every arity is wired to the last queue", arguments: 3...8)
    func lastSlot(count: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (0..<count).map { index in
            scheduler.createHotObservable([.next(210, index), .next(220, index * 100), .completed(230)])
        }
        let res = scheduler.start { () -> Observable<Int> in
            switch count {
            case 3: Observable.zip(s[0], s[1], s[2]).map { $2 }
            case 4: Observable.zip(s[0], s[1], s[2], s[3]).map { $3 }
            case 5: Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { $4 }
            case 6: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { $5 }
            case 7: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { $6 }
            default: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { $7 }
            }
        }
        #expect(res.events == [.next(210, count - 1), .next(220, (count - 1) * 100), .completed(230)])
    }

    // MARK: re-entrancy

    @Test("pairs completed while delivering are delivered after, in order, not inside")
    func reentrantPairs() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<String>()
        var received: [String] = []
        var depth = 0
        var maxDepth = 0
        let subscription = Observable.zip(left, right) { "\($0)\($1)" }
            .subscribe(onNext: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                received.append(value)
                if value == "1a" {
                    left.onNext(2)
                    left.onNext(3)
                    right.onNext("b")
                    right.onNext("c")
                    left.onNext(4)
                }
                depth -= 1
            })
        left.onNext(1)
        right.onNext("a")
        right.onNext("d")
        #expect(received == ["1a", "2b", "3c", "4d"])
        #expect(maxDepth == 1)
        subscription.dispose()
    }

    @Test("an error thrown by the selector for a queued pair ends the sequence, and nothing follows")
    func reentrantSelectorError() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        var received: [String] = []
        let subscription = Observable.zip(left, right) { a, b -> Int in
            if a == 2 { throw testError }
            return a + b
        }
        .subscribe(
            onNext: { value in
                received.append("\(value)")
                if value == 2 {
                    left.onNext(2)
                    right.onNext(2)
                    left.onNext(3)
                    right.onNext(3)
                }
            },
            onError: { _ in received.append("error") }
        )
        left.onNext(1)
        right.onNext(1)
        left.onNext(5)
        right.onNext(5)
        #expect(received == ["2", "error"])
        subscription.dispose()
    }
}
