/// The navigation step to a presented destination, made once per `ifLet` (its key path object
/// and its action case path), and the id of the destination's effects and the path of its
/// reducer at the root, kept with it: a body rebuilt for every action hands `ifLet` the same
/// key path object each time, and building the step (its box and its label's dismissal probe),
/// the root id (its box and the step's type-erased copy) and the path (its array) cost about
/// 900 instructions on every presented action and every dismissal. Ids and paths made from
/// kept parts also compare by identity in the core's cancellation table.
///
/// A step made afresh and a kept one are equal (`NavigationID ==` compares the kind, the key
/// path and the element id; the kept label is the one the same key path and case path give),
/// and a kept root id compares equal to one made afresh, by its box at once.
///
/// Slots are picked by the key path object's address (as `KeyPathOffsets` picks them), in a
/// `PublishedTable`, so a read takes no lock. A slot, once filled, keeps its key path retained
/// for the life of the process, so no other key path can come to have its address. A slot also
/// names the case path it was filled for, by where that case path was made
/// (`CasePathID.isMade(like:)`): an `ifLet` whose key path finds a slot filled for another
/// case path, or another key path, builds its step each time, as without the table; at most
/// `slotCount` steps are kept.
///
/// ```swift
/// let kept = PresentationSteps.shared.kept(for: \State.$search, caseID: caseID) { make() }
/// kept.step == make()                                // true
/// kept.rootPath == NavigationIDPath().appending(kept.step)  // true
/// kept.rootCancelID == EffectCancelID(
///   id: AnyHashableSendable(kept.step), navigationIDPath: NavigationIDPath())  // true
/// ```
@usableFromInline
package final class PresentationSteps: Sendable {
  /// The process's steps.
  @usableFromInline package static let shared = PresentationSteps()

  @usableFromInline static let slotCount = 64

  /// A presentation's step and its root id, with what the slot was filled for.
  /// Unchecked: key path objects are immutable, but their types are not declared `Sendable`.
  @usableFromInline
  final class Entry: @unchecked Sendable {
    @usableFromInline let keyPath: AnyKeyPath
    @usableFromInline let caseID: CasePathID
    @usableFromInline let step: NavigationID
    @usableFromInline let rootCancelID: EffectCancelID
    /// The path of the destination's reducer when the presentation is at the root: the step.
    @usableFromInline let rootPath: NavigationIDPath

    init(keyPath: AnyKeyPath, caseID: CasePathID, step: NavigationID) {
      self.keyPath = keyPath
      self.caseID = caseID
      self.step = step
      rootCancelID = EffectCancelID(
        id: AnyHashableSendable(step), navigationIDPath: NavigationIDPath())
      rootPath = NavigationIDPath(path: [step])
    }
  }

  /// What a presentation reads of its entry.
  @usableFromInline
  package struct Kept {
    /// The navigation step to the destination.
    @usableFromInline package let step: NavigationID
    /// The id of the destination's effects at the root.
    @usableFromInline package let rootCancelID: EffectCancelID
    /// The path of the destination's reducer at the root: the step alone.
    @usableFromInline package let rootPath: NavigationIDPath

    @inlinable
    init(step: NavigationID, rootCancelID: EffectCancelID, rootPath: NavigationIDPath) {
      self.step = step
      self.rootCancelID = rootCancelID
      self.rootPath = rootPath
    }
  }

  /// The published tables of `slotCount` slots. A table is replaced only when an empty slot is
  /// filled, so at most `slotCount` are made (and kept: see `PublishedTable`).
  @usableFromInline let table = PublishedTable<[Entry?]>()

  @usableFromInline package init() {}

  /// The step `make` builds for the presentation at `keyPath` whose actions `caseID`'s case
  /// path carries, its id and its path at the root: kept ones when the slot holds them, else
  /// new ones (kept when the slot is empty).
  @inlinable
  package func kept(
    for keyPath: AnyKeyPath & Sendable, caseID: CasePathID, make: () -> NavigationID
  ) -> PresentationSteps.Kept {
    let slot = KeyPathOffsets.slot(of: keyPath)
    let kept = table.read { entries -> Entry? in
      guard let entry = entries[slot], entry.keyPath === keyPath,
        entry.caseID.isMade(like: caseID)
      else { return nil }
      return entry
    }
    if let kept, let entry = kept {
      return Kept(step: entry.step, rootCancelID: entry.rootCancelID, rootPath: entry.rootPath)
    }
    let entry = keep(make(), for: keyPath, caseID: caseID, in: slot)
    return Kept(step: entry.step, rootCancelID: entry.rootCancelID, rootPath: entry.rootPath)
  }

  /// The entry for `step`, published in `slot` unless the slot holds one already.
  @usableFromInline
  func keep(
    _ step: NavigationID, for keyPath: AnyKeyPath, caseID: CasePathID, in slot: Int
  ) -> Entry {
    let entry = Entry(keyPath: keyPath, caseID: caseID, step: step)
    table.publish { current in
      var entries = current ?? Array(repeating: nil, count: Self.slotCount)
      guard entries[slot] == nil else { return (nil, ()) }
      entries[slot] = entry
      return (entries, ())
    }
    return entry
  }
}
