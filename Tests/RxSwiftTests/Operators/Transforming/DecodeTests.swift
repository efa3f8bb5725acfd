import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

private struct Hobby: Codable, Equatable {
    let name: String
    let level: Int
}

/// A decoder of the project's own that reads "name:level".
private struct ColonDecoder: DataDecoder {
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item {
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":")
        guard parts.count == 2, let level = Int(parts[1]), let hobby = Hobby(name: String(parts[0]), level: level) as? Item else {
            throw testError
        }
        return hobby
    }
}

@Suite("decode", .rxLeakCheck)
struct DecodeTests {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    @Test func decodesJSONElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, json(#"{"name":"chess","level":3}"#)),
            .next(220, json(#"{"name":"go","level":5}"#)),
            .completed(300),
        ])
        let res = scheduler.start { xs.decode(type: Hobby.self, decoder: JSONDecoder()) }
        #expect(res.events == [
            .next(210, Hobby(name: "chess", level: 3)),
            .next(220, Hobby(name: "go", level: 5)),
            .completed(300),
        ])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func malformedDataEndsWithDecodingError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, json(#"{"name":"chess","level":3}"#)),
            .next(220, json(#"{"name":"go"}"#)),
            .next(230, json(#"{"name":"tennis","level":1}"#)),
            .completed(300),
        ])
        let res = scheduler.start { xs.decode(type: Hobby.self, decoder: JSONDecoder()) }
        #expect(res.events.count == 2)
        #expect(res.events.first == .next(210, Hobby(name: "chess", level: 3)))
        #expect(res.events.last?.time == 220)
        #expect(res.events.last?.value.error is DecodingError)
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func decodesPropertyLists() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let data = try PropertyListEncoder().encode(Hobby(name: "chess", level: 3))
        let xs = scheduler.createColdObservable([.next(10, data), .completed(20)])
        let res = scheduler.start { xs.decode(type: Hobby.self, decoder: PropertyListDecoder()) }
        #expect(res.events == [.next(210, Hobby(name: "chess", level: 3)), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func usesACustomDataDecoder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, Data("chess:3".utf8)),
            .next(20, Data("nonsense".utf8)),
        ])
        let res = scheduler.start { xs.decode(type: Hobby.self, decoder: ColonDecoder()) }
        #expect(res.events.count == 2)
        #expect(res.events.first == .next(210, Hobby(name: "chess", level: 3)))
        #expect(res.events.last?.time == 220)
        #expect(res.events.last?.value.error as? TestError == testError)
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, json(#"{"name":"chess","level":3}"#)),
            .next(260, json(#"{"name":"go","level":5}"#)),
        ])
        let res = scheduler.start(disposed: 250) { xs.decode(type: Hobby.self, decoder: JSONDecoder()) }
        #expect(res.events == [.next(210, Hobby(name: "chess", level: 3))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
