import Foundation
import ProfileFeature
import RxBlocking
import RxCocoa
import RxLanes
import RxSwift
import RxTest
import XCTest

/// A fake API whose answers arrive at virtual times of a test scheduler.
final class VirtualProfileAPI: ProfileAPI {
    let scheduler: TestScheduler
    var missingUser = false
    var badge: String?

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func session() -> Single<Int> {
        scheduler.createColdObservable([.next(10, 7), .completed(10)]).asSingle()
    }

    func user(id: Int) -> Single<User> {
        if missingUser {
            return scheduler.createColdObservable([.error(20, ProfileError.notFound)]).asSingle()
        }
        return scheduler.createColdObservable([.next(20, User(id: id, name: "Ada")), .completed(20)]).asSingle()
    }

    func badge(for user: User) -> Maybe<String> {
        if let badge = badge {
            return scheduler.createColdObservable([.next(5, badge), .completed(5)]).asMaybe()
        }
        return scheduler.createColdObservable([.completed(5)]).asMaybe()
    }

    func markSeen(_ user: User) -> Completable {
        scheduler.createColdObservable([.completed(3)]).asCompletable()
    }
}

final class ProfileFeatureTests: XCTestCase {
    func testSingleChainSucceedsAfterBothRequests() {
        let scheduler = TestScheduler(initialClock: 0)
        let api = VirtualProfileAPI(scheduler: scheduler)
        var events: [SingleEvent<User>] = []
        scheduler.scheduleAt(100) {
            _ = ProfileViewModel(api: api).loadUser().subscribe { events.append($0) }
        }
        scheduler.start()
        XCTAssertEqual(events, [.success(User(id: 7, name: "Ada"))])
        XCTAssertEqual(scheduler.clock, 130)
    }

    func testSingleChainFailsWithTheRequestError() {
        let scheduler = TestScheduler(initialClock: 0)
        let api = VirtualProfileAPI(scheduler: scheduler)
        api.missingUser = true
        let result = scheduler.start { api.profileTitle().asObservable() }
        XCTAssertEqual(result.events, [.error(230, ProfileError.notFound)])
    }

    func testTitleWithAndWithoutBadge() {
        let scheduler = TestScheduler(initialClock: 0)
        let plainAPI = VirtualProfileAPI(scheduler: scheduler)
        let badgedAPI = VirtualProfileAPI(scheduler: scheduler)
        badgedAPI.badge = "★"
        var plain: [SingleEvent<String>] = []
        var badged: [MaybeEvent<String>] = []
        var seen: [CompletableEvent] = []
        scheduler.scheduleAt(100) {
            _ = plainAPI.profileTitle().subscribe { plain.append($0) }
            _ = badgedAPI.profileTitle().asMaybe().subscribe { badged.append($0) }
            _ = plainAPI.markSeen(User(id: 1, name: "Ada")).subscribe { seen.append($0) }
        }
        scheduler.start()
        XCTAssertEqual(plain, [.success("Ada")])
        XCTAssertEqual(badged, [.success("Ada ★")])
        XCTAssertEqual(seen, [.completed])
    }

    func testViewModelDrivesTheViewThroughItsRxExtension() {
        let scheduler = TestScheduler(initialClock: 0)
        let api = VirtualProfileAPI(scheduler: scheduler)
        let view = ProfileView()
        let titles = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            // Made under the mock, the Driver delivers on the test scheduler: one tick
            // after the title is ready at 238.
            let viewModel = ProfileViewModel(api: api)
            _ = viewModel.title.drive(view.rx.title)
            _ = viewModel.title.drive(titles)
            scheduler.scheduleAt(200) { viewModel.refresh.accept(()) }
            scheduler.start()
        }
        XCTAssertEqual(view.title, "Ada")
        XCTAssertEqual(titles.events, [.next(239, "Ada")])
    }

    func testNSObjectPropertiesBindThroughRx() throws {
        let label = StatusLabel()
        let subscription = Observable.just("Saved").bind(to: label.rx.text)
        subscription.dispose()
        let drained = expectation(description: "main queue")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(label.text, "Saved")
        XCTAssertEqual(try Single.just(3).flatMap { Single.just($0 * 2) }.toBlocking().first(), 6)
    }

    func testALibraryBuiltForRxSwiftWorksThroughTheMirror() {
        let scheduler = TestScheduler(initialClock: 0)
        let viewModel = ProfileViewModel(api: VirtualProfileAPI(scheduler: scheduler))
        let labels = scheduler.createObserver(String.self)
        let disposeBag = DisposeBag()
        viewModel.refreshCountLabel.bind(to: labels).disposed(by: disposeBag)
        scheduler.createColdObservable([.next(10, ()), .next(20, ())])
            .bind(to: viewModel.refresh)
            .disposed(by: disposeBag)
        scheduler.start()
        XCTAssertEqual(labels.events, [.next(10, "1 item"), .next(20, "2 items")])
    }

    func testRxTimelanesLaneAndRivuletsRecordLaneWorkSideBySide() {
        let viewModel = ProfileViewModel(api: VirtualProfileAPI(scheduler: TestScheduler(initialClock: 0)))
        let recorder = LaneRecorder()
        var logged: [String] = []
        let subscription = viewModel.watchedRefreshCount(log: { logged.append($0) }, recorder: recorder).subscribe()
        viewModel.refresh.accept(())
        subscription.dispose()
        XCTAssertEqual(logged, ["refreshes again: subscribed", "refreshes: subscribed", "refreshes: 1", "refreshes again: #1"])
        let recording = recorder.snapshot()
        XCTAssertEqual(recording.lanes.map(\.name), ["refreshes"])
        XCTAssertEqual(recording.entries.map(\.kind), [.subscribed, .next("1"), .disposed])
    }
}
