import ComposableCore
import XCTest

/// `PresentationSteps`: a presentation's step, root id and root path, made once per key path
/// object and case path and equal to ones made afresh; made each time for a case path that
/// does not match the slot's, and right for more key paths than it has slots.
final class PresentationStepsTests: XCTestCase {
  private struct Child: Equatable, Sendable {
    var count = 0
  }

  private struct Parent: Sendable {
    var child: PresentationState<Child> = PresentationState(wrappedValue: nil)
    var other: PresentationState<Child> = PresentationState(wrappedValue: nil)
  }

  private enum ChildAction: Equatable, Sendable {
    case tapped
  }

  private enum Action: Sendable {
    case child(PresentationAction<ChildAction>)
    case other(PresentationAction<ChildAction>)
  }

  private static var child: AnyCasePath<Action, PresentationAction<ChildAction>> {
    AnyCasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  private static var other: AnyCasePath<Action, PresentationAction<ChildAction>> {
    AnyCasePath(Action.other) { if case let .other(action) = $0 { action } else { nil } }
  }

  private typealias Path = WritableKeyPath<Parent, PresentationState<Child>> & Sendable

  // Typed as writable, so that appending them makes writable key paths made at run time.
  private static var childState: WritableKeyPath<Parent, PresentationState<Child>> { \.child }
  private static var identity: WritableKeyPath<Parent, Parent> { \.self }

  /// A key path made at run time, as a presentation takes it (key path objects are immutable;
  /// `appending` does not say its result is `Sendable`).
  private static func sendable(_ path: WritableKeyPath<Parent, PresentationState<Child>>) -> Path {
    unsafeBitCast(path, to: Path.self)
  }

  private static func step(
    _ keyPath: Path,
    _ casePath: AnyCasePath<Action, PresentationAction<ChildAction>>
  ) -> NavigationID {
    NavigationID(
      kind: .presentation, keyPath: keyPath, elementID: nil,
      label: ReducerLabel(keyPath: keyPath, presentation: casePath))
  }

  func testAKeptStepIsMadeOnceAndEqualsOneMadeAfresh() {
    let steps = PresentationSteps()
    let keyPath: Path = \Parent.child
    let casePath = Self.child
    var made = 0
    let first = steps.kept(for: keyPath, caseID: casePath.id) {
      made += 1
      return Self.step(keyPath, casePath)
    }
    // A body rebuilt for the next action makes its case path again, at the same place.
    let again = Self.child
    let second = steps.kept(for: keyPath, caseID: again.id) {
      made += 1
      return Self.step(keyPath, again)
    }
    XCTAssertEqual(made, 1)
    let fresh = Self.step(keyPath, casePath)
    XCTAssertEqual(second.step, fresh)
    XCTAssertEqual(second.step.label.text, fresh.label.text)
    XCTAssertEqual(second.step.description, first.step.description)
    XCTAssertEqual(
      second.rootCancelID,
      EffectCancelID(id: AnyHashableSendable(fresh), navigationIDPath: NavigationIDPath()))
    XCTAssertEqual(second.rootCancelID.hash, first.rootCancelID.hash)
    XCTAssertEqual(second.rootPath, NavigationIDPath().appending(fresh))
  }

  func testACasePathMadeElsewhereGetsAStepMadeEachTime() {
    let steps = PresentationSteps()
    let keyPath: Path = \Parent.child
    var made = 0
    _ = steps.kept(for: keyPath, caseID: Self.child.id) { Self.step(keyPath, Self.child) }
    for _ in 0..<2 {
      let other = Self.other
      let kept = steps.kept(for: keyPath, caseID: other.id) {
        made += 1
        return Self.step(keyPath, other)
      }
      XCTAssertEqual(kept.step, Self.step(keyPath, other))
      XCTAssertEqual(kept.step.label.text, Self.step(keyPath, other).label.text)
    }
    XCTAssertEqual(made, 2)
  }

  func testMoreKeyPathsThanSlotsEachGetTheirOwnStep() {
    let steps = PresentationSteps()
    // Key paths made at run time (appended), each a new object: more than the 64 slots, so
    // some share a slot with one kept before them and get a step made for them.
    let paths: [Path] = (0..<200).map { index in
      Self.sendable(
        index.isMultiple(of: 2)
          ? Self.identity.appending(path: Self.childState)
          : Self.identity.appending(path: \Parent.other))
    }
    for _ in 0..<2 {
      for (index, path) in paths.enumerated() {
        let casePath = Self.child
        let kept = steps.kept(for: path, caseID: casePath.id) { Self.step(path, casePath) }
        XCTAssertEqual(kept.step, Self.step(path, casePath), "path \(index)")
        XCTAssertEqual(
          kept.rootCancelID,
          EffectCancelID(
            id: AnyHashableSendable(Self.step(path, casePath)),
            navigationIDPath: NavigationIDPath()),
          "path \(index)")
      }
    }
  }

  func testCasePathIDsAreMadeAlikeOnlyAtTheSamePlace() {
    XCTAssertTrue(Self.child.id.isMade(like: Self.child.id))
    XCTAssertFalse(Self.child.id.isMade(like: Self.other.id))
    // Equal ids made apart (each with its own box of extra parts) are not made alike.
    let named = AnyCasePath<Action, PresentationAction<ChildAction>>(
      name: "child", embed: Action.child,
      extract: { if case let .child(action) = $0 { action } else { nil } })
    let namedAgain = AnyCasePath<Action, PresentationAction<ChildAction>>(
      name: "child", embed: Action.child,
      extract: { if case let .child(action) = $0 { action } else { nil } })
    XCTAssertFalse(named.id.isMade(like: namedAgain.id))
  }
}
