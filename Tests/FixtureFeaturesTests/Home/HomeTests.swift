import ComposableCore
import ComposableTesting
import FixtureSupport
import Foundation
import HomeFeature
import XCTest

@MainActor
final class HomeTests: XCTestCase {
  let children = ChildRepository.sampleChildren
  let schedules = ScheduleRepository.sampleDay(testNow)

  func testOnAppearLoadsChildrenSchedulesAndTheBriefing() async {
    let store = TestStore(initialState: Home.State()) {
      Home()
    } withDependencies: {
      $0.childRepository = .mock
      $0.scheduleRepository = .mock
      $0.briefingClient = .immediate
      $0.date = .constant(testNow)
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(.childrenLoaded(.success(children))) {
      $0.children = IdentifiedArray(uniqueElements: self.children)
      $0.selectedChildID = "child-1"
    }
    await store.receive(.schedulesLoaded(.success(schedules))) {
      $0.isLoading = false
      $0.todaySchedules = self.schedules
    }
    let briefing = "Jiwoo has 2 plans today: School at 08:40, then Piano at 15:30."
    await store.receive(.aiBriefingLoaded(.success(briefing))) { $0.aiBriefing = briefing }
    XCTAssertEqual(store.state.selectedChildSchedules.map(\.title), ["School", "Piano"])
  }

  func testALoadFailureIsShown() async {
    let store = TestStore(initialState: Home.State()) {
      Home()
    } withDependencies: {
      $0.childRepository = .mock
      $0.scheduleRepository = .mock
      $0.briefingClient = .immediate
      $0.date = .constant(testNow)
      $0.childRepository.fetchAll = { throw FetchFailure(message: "sync engine offline") }
    }
    await store.send(.onAppear) { $0.isLoading = true }
    let failure = FetchFailure(message: "sync engine offline")
    await store.receive(.childrenLoaded(.failure(failure))) {
      $0.isLoading = false
      $0.errorMessage = "sync engine offline"
    }
    await store.receive(.schedulesLoaded(.success(schedules))) {
      $0.todaySchedules = self.schedules
    }
  }

  func testSelectingAChildReplacesTheBriefingInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: loadedState()) {
      Home()
    } withDependencies: {
      $0.childRepository = .mock
      $0.scheduleRepository = .mock
      $0.briefingClient = .immediate
      $0.continuousClock = clock
      $0.briefingClient = .live
    }
    await store.send(.childSelected("child-2")) {
      $0.selectedChildID = "child-2"
      $0.aiBriefing = nil
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    await store.send(.childSelected("child-1")) { $0.selectedChildID = "child-1" }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    let briefing = "Jiwoo has 2 plans today: School at 08:40, then Piano at 15:30."
    await store.receive(.aiBriefingLoaded(.success(briefing))) { $0.aiBriefing = briefing }
  }

  func testSelectingAnUnknownOrTheSelectedChildDoesNothing() async {
    let store = TestStore(initialState: loadedState()) { Home() }
    await store.send(.childSelected("child-1"))
    await store.send(.childSelected("child-9"))
  }

  func testChildDetailSavesTheNicknameAndIsDismissed() async {
    let store = TestStore(initialState: loadedState()) {
      Home()
    } withDependencies: {
      $0.childRepository = .mock
    }
    await store.send(.childCardTapped("child-1")) {
      $0.childDetail = ChildDetail.State(child: self.children[0])
    }
    await store.send(.childDetail(.presented(.nicknameChanged(" Wooly ")))) {
      $0.childDetail?.nicknameDraft = " Wooly "
    }
    await store.send(.childDetail(.presented(.saveTapped))) { $0.childDetail?.isSaving = true }
    var updated = children[0]
    updated.nickname = "Wooly"
    await store.receive(.childDetail(.presented(.saved(.success(updated))))) {
      $0.childDetail?.isSaving = false
      $0.childDetail?.child = updated
    }
    await store.receive(.childDetail(.presented(.delegate(.childUpdated(updated))))) {
      $0.children[id: "child-1"] = updated
      $0.childDetail = nil
    }
  }

  func testAnEmptyNicknameIsRefused() async {
    var state = loadedState()
    state.childDetail = ChildDetail.State(child: children[1])
    let store = TestStore(initialState: state) { Home() }
    await store.send(.childDetail(.presented(.nicknameChanged("")))) {
      $0.childDetail?.nicknameDraft = ""
    }
    await store.send(.childDetail(.presented(.saveTapped))) {
      $0.childDetail?.errorMessage = "A nickname cannot be empty."
    }
  }

  func testAddingAScheduleTakesIDAndDateFromDependencies() async {
    let store = TestStore(initialState: loadedState()) {
      Home()
    } withDependencies: {
      $0.childRepository = .mock
      $0.scheduleRepository = .mock
      $0.briefingClient = .immediate
      $0.uuid = .incrementing
      $0.date = .constant(testNow)
    }
    await store.send(.addScheduleTapped) {
      $0.scheduleAdd = ScheduleAdd.State(
        id: UUID(fixture: 0), childID: "child-1", startsAt: testNow)
    }
    await store.send(.scheduleAdd(.presented(.titleChanged("Dentist")))) {
      $0.scheduleAdd?.title = "Dentist"
    }
    await store.send(.scheduleAdd(.presented(.startMoved(minutes: 240)))) {
      $0.scheduleAdd?.startsAt = testNow.addingTimeInterval(4 * 3600)
    }
    await store.send(.scheduleAdd(.presented(.saveTapped))) { $0.scheduleAdd?.isSaving = true }
    let dentist = Schedule(
      id: UUID(fixture: 0), childID: "child-1", title: "Dentist",
      startsAt: testNow.addingTimeInterval(4 * 3600))
    await store.receive(.scheduleAdd(.presented(.saved(.success(dentist))))) {
      $0.scheduleAdd?.isSaving = false
    }
    await store.receive(.scheduleAdd(.presented(.delegate(.scheduleAdded(dentist))))) {
      // 12:00 sorts after School (08:40) and Kindergarten (09:00), before Piano (15:30).
      $0.todaySchedules.insert(dentist, at: 2)
      $0.scheduleAdd = nil
      $0.aiBriefing = nil
    }
    let briefing =
      "Jiwoo has 3 plans today: School at 08:40, then Dentist at 12:00, then Piano at 15:30."
    await store.receive(.aiBriefingLoaded(.success(briefing))) { $0.aiBriefing = briefing }
  }

  func testAScheduleWithoutATitleIsRefused() async {
    var state = loadedState()
    state.scheduleAdd = ScheduleAdd.State(
      id: UUID(fixture: 7), childID: "child-2", startsAt: testNow)
    let store = TestStore(initialState: state) { Home() }
    await store.send(.scheduleAdd(.presented(.saveTapped))) {
      $0.scheduleAdd?.errorMessage = "A schedule needs a title."
    }
  }

  func testDismissingScheduleAddCancelsItsSave() async {
    let clock = TestClock()
    var state = loadedState()
    state.scheduleAdd = ScheduleAdd.State(
      id: UUID(fixture: 7), childID: "child-2", title: "Art", startsAt: testNow)
    let store = TestStore(initialState: state) {
      Home()
    } withDependencies: {
      $0.childRepository = .mock
      $0.scheduleRepository = .mock
      $0.briefingClient = .immediate
      $0.continuousClock = clock
      $0.scheduleRepository = .live
    }
    await store.send(.scheduleAdd(.presented(.saveTapped))) { $0.scheduleAdd?.isSaving = true }
    await clock.waitForSleepers(1)
    await store.send(.scheduleAdd(.dismiss)) { $0.scheduleAdd = nil }
    await clock.advance(by: .seconds(1))
    await store.finish()
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testStateAndActionsSurviveCoding() throws {
    var state = loadedState()
    state.childDetail = ChildDetail.State(child: children[0])
    state.scheduleAdd = ScheduleAdd.State(
      id: UUID(fixture: 3), childID: "child-2", startsAt: testNow)
    XCTAssertEqual(try roundTrip(state), state)
    let actions: [Home.Action] = [
      .onAppear, .childSelected("child-2"), .addScheduleTapped, .childCardTapped("child-1"),
      .schedulesLoaded(.success(schedules)),
      .aiBriefingLoaded(.failure(FetchFailure(message: "x"))),
      .childDetail(.presented(.saveTapped)), .childDetail(.dismiss),
      .scheduleAdd(.presented(.titleChanged("T"))), .scheduleAdd(.dismiss),
    ]
    XCTAssertEqual(try roundTrip(actions), actions)
    XCTAssertEqual(
      try json(Home.Action.childDetail(.dismiss)), #"{"childDetail":{"_0":{"dismiss":{}}}}"#)
    XCTAssertEqual(
      try json(Home.Action.scheduleAdd(.presented(.saveTapped))),
      #"{"scheduleAdd":{"_0":{"presented":{"_0":{"saveTapped":{}}}}}}"#
    )
  }

  /// The home screen after `onAppear` finished.
  func loadedState() -> Home.State {
    Home.State(
      children: IdentifiedArray(uniqueElements: children),
      selectedChildID: "child-1",
      todaySchedules: schedules,
      aiBriefing: "Jiwoo has 2 plans today: School at 08:40, then Piano at 15:30."
    )
  }
}
