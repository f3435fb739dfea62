import CalendarFeature
import CalendarInterface
import ComposableCore
import ComposableTesting
import FixtureFeatures
import FixtureSupport
import FolderFeature
import FolderInterface
import FolderTabFeature
import Foundation
import XCTest

@MainActor
final class FolderTabTests: XCTestCase {
  let may = CalendarMonth(year: 2026, month: 5)

  func testOnAppearStartsBothChildrenAndLoadsTheirData() async {
    let clock = TestClock()
    let store = TestStore(initialState: FolderTabState()) {
      AppFolderTab()
    } withDependencies: {
      $0.folderClient = .immediate
      $0.climbLogClient = .immediate
      $0.continuousClock = clock
      $0.date = .constant(testNow)
      $0.folderClient = .live
      $0.climbLogClient = .live
    }
    await store.send(.view(.onAppear))
    await store.receive(.folder(.view(.onAppear))) { $0.folder.isLoading = true }
    await store.receive(.calendar(.view(.onAppear))) {
      $0.calendar.today = CalendarDay(year: 2026, month: 5, day: 12)
      $0.calendar.month = self.may
      $0.calendar.isLoading = true
    }
    await clock.waitForSleepers(2)
    // The log answers after 120 ms, the folders after 150 ms: the order is fixed.
    await clock.advance(by: .milliseconds(120))
    let days = [1, 3, 4, 8, 10, 11, 15, 17, 18, 22, 24, 25, 29, 31]
    await store.receive(.calendar(.inner(.recordsLoaded(may, .success(days))))) {
      $0.calendar.isLoading = false
      $0.calendar.climbedDays = days
    }
    await clock.advance(by: .milliseconds(30))
    await store.receive(.folder(.inner(.foldersLoaded(.success(FolderClient.sampleFolders))))) {
      $0.folder.isLoading = false
      $0.folder.folders = IdentifiedArray(uniqueElements: FolderClient.sampleFolders)
    }
  }

  func testChoosingACalendarDayHighlightsTheFoldersClimbedThen() async {
    let store = TestStore(initialState: loadedState(selectedTab: .calendar)) { AppFolderTab() }
    let day = CalendarDay(year: 2026, month: 5, day: 10)
    await store.send(.calendar(.view(.dayTapped(10)))) { $0.calendar.selectedDay = day }
    await store.receive(.calendar(.delegate(.daySelected(day)))) {
      $0.folder.highlightedDay = day
      $0.selectedTab = .folder
    }
    XCTAssertEqual(
      store.state.folder.highlightedFolderIDs,
      [FolderClient.sampleFolders[0].id, FolderClient.sampleFolders[3].id]
    )
  }

  func testADayOutsideTheMonthIsIgnored() async {
    let store = TestStore(initialState: loadedState()) { AppFolderTab() }
    await store.send(.calendar(.view(.dayTapped(32))))
    await store.send(.calendar(.view(.dayTapped(0))))
  }

  func testTappingAFolderOpensItAndClosingForgetsIt() async {
    let store = TestStore(initialState: loadedState()) { AppFolderTab() }
    let id = FolderClient.sampleFolders[1].id
    await store.send(.folder(.view(.folderTapped(id))))
    await store.receive(.folder(.delegate(.folderOpened(id)))) { $0.openedFolderID = id }
    await store.send(.view(.closeFolderTapped)) { $0.openedFolderID = nil }
  }

  func testCreatingAFolderTakesItsIDFromTheUUIDDependency() async {
    let store = TestStore(initialState: loadedState()) {
      AppFolderTab()
    } withDependencies: {
      $0.folderClient = .immediate
      $0.climbLogClient = .immediate
      $0.uuid = .incrementing
    }
    await store.send(.folder(.view(.createFolderTapped(name: "  Gym  "))))
    let gym = Folder(id: UUID(fixture: 0), name: "Gym")
    await store.receive(.folder(.inner(.folderCreated(.success(gym))))) {
      $0.folder.folders.append(gym)
    }
  }

  func testAFolderWithoutANameIsRefused() async {
    let store = TestStore(initialState: loadedState()) { AppFolderTab() }
    await store.send(.folder(.view(.createFolderTapped(name: "   ")))) {
      $0.folder.errorMessage = "A folder needs a name."
    }
  }

  func testLiveClientRefusesADuplicateName() async {
    let clock = TestClock()
    let store = TestStore(initialState: loadedState()) {
      AppFolderTab()
    } withDependencies: {
      $0.folderClient = .immediate
      $0.climbLogClient = .immediate
      $0.uuid = .incrementing
      $0.continuousClock = clock
      $0.folderClient = .live
    }
    await store.send(.folder(.view(.createFolderTapped(name: "Lead"))))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(150))
    let failure = FetchFailure(message: #"a folder named "Lead" exists"#)
    await store.receive(.folder(.inner(.folderCreated(.failure(failure))))) {
      $0.folder.errorMessage = #"a folder named "Lead" exists"#
    }
  }

  func testDeletingTheOpenedFolderClosesIt() async {
    let id = FolderClient.sampleFolders[2].id
    var state = loadedState()
    state.openedFolderID = id
    let store = TestStore(initialState: state) {
      AppFolderTab()
    } withDependencies: {
      $0.folderClient = .immediate
      $0.climbLogClient = .immediate
    }
    await store.send(.folder(.view(.deleteFolderTapped(id))))
    await store.receive(.folder(.inner(.folderDeleted(.success(id))))) {
      $0.folder.folders.remove(id: id)
      $0.openedFolderID = nil
    }
  }

  func testMonthNavigationLoadsTheNewMonth() async {
    let store = TestStore(initialState: loadedState()) {
      AppFolderTab()
    } withDependencies: {
      $0.folderClient = .immediate
      $0.climbLogClient = .immediate
    }
    let june = may.next
    await store.send(.calendar(.view(.nextMonthTapped))) {
      $0.calendar.month = june
      $0.calendar.climbedDays = []
      $0.calendar.isLoading = true
    }
    let days = ClimbLogClient.sampleDays(in: june)
    await store.receive(.calendar(.inner(.recordsLoaded(june, .success(days))))) {
      $0.calendar.isLoading = false
      $0.calendar.climbedDays = days
    }
  }

  func testLeavingAMonthCancelsItsLoad() async {
    let clock = TestClock()
    let store = TestStore(initialState: loadedState()) {
      AppFolderTab()
    } withDependencies: {
      $0.folderClient = .immediate
      $0.climbLogClient = .immediate
      $0.continuousClock = clock
      $0.climbLogClient = .live
    }
    await store.send(.calendar(.view(.nextMonthTapped))) {
      $0.calendar.month = self.may.next
      $0.calendar.climbedDays = []
      $0.calendar.isLoading = true
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(60))
    await store.send(.calendar(.view(.previousMonthTapped))) { $0.calendar.month = self.may }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(120))
    let days = ClimbLogClient.sampleDays(in: may)
    await store.receive(.calendar(.inner(.recordsLoaded(may, .success(days))))) {
      $0.calendar.isLoading = false
      $0.calendar.climbedDays = days
    }
  }

  func testALateAnswerForAnotherMonthIsIgnored() async {
    let store = TestStore(initialState: loadedState()) { AppFolderTab() }
    await store.send(.calendar(.inner(.recordsLoaded(may.previous, .success([1, 2])))))
  }

  func testTheTabComposesAnyImplementationOfTheInterfaces() async {
    // The tab knows only FolderInterface and CalendarInterface: another folder grid can be
    // injected, as the composing target injects FolderGrid.
    let store = TestStore(initialState: FolderTabState()) {
      FolderTab(folder: SingleFolderGrid(), calendar: ClimbCalendar())
    } withDependencies: {
      $0.folderClient = .immediate
      $0.climbLogClient = .immediate
      $0.date = .constant(testNow)
    }
    await store.send(.folder(.view(.onAppear))) {
      $0.folder.folders = [Folder(id: UUID(fixture: 42), name: "Only")]
    }
    await store.send(.view(.tabSelected(.calendar))) { $0.selectedTab = .calendar }
  }

  func testStateAndActionsSurviveCoding() throws {
    let state = loadedState(selectedTab: .calendar)
    XCTAssertEqual(try roundTrip(state), state)
    let actions: [FolderTabAction] = [
      .view(.onAppear), .view(.tabSelected(.calendar)), .view(.closeFolderTapped),
      .folder(.view(.createFolderTapped(name: "A"))),
      .folder(.inner(.foldersLoaded(.success(FolderClient.sampleFolders)))),
      .folder(.delegate(.folderOpened(UUID(fixture: 1)))),
      .calendar(.view(.dayTapped(3))),
      .calendar(.inner(.recordsLoaded(may, .failure(FetchFailure(message: "x"))))),
      .calendar(.delegate(.daySelected(may.day(3)))),
    ]
    XCTAssertEqual(try roundTrip(actions), actions)
    XCTAssertEqual(
      try json(FolderTabAction.calendar(.view(.dayTapped(3)))),
      #"{"calendar":{"_0":{"view":{"_0":{"dayTapped":{"_0":3}}}}}}"#
    )
  }

  /// The tab after `onAppear` finished on 2026-05-12.
  func loadedState(selectedTab: FolderTabKind = .folder) -> FolderTabState {
    FolderTabState(
      selectedTab: selectedTab,
      folder: FolderState(folders: IdentifiedArray(uniqueElements: FolderClient.sampleFolders)),
      calendar: CalendarState(
        month: may,
        today: may.day(12),
        climbedDays: ClimbLogClient.sampleDays(in: may)
      )
    )
  }
}

/// A folder grid that shows one folder at once: another implementation of the interface.
struct SingleFolderGrid: FolderReducer {
  func reduce(into state: inout FolderState, action: FolderAction) -> Effect<FolderAction> {
    if case .view(.onAppear) = action {
      state.folders = [Folder(id: UUID(fixture: 42), name: "Only")]
    }
    return .none
  }
}
