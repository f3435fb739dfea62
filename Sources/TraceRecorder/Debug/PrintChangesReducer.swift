import ComposableCore
import Foundation
import TraceKit

extension Reducer where State: Encodable, Action: Encodable {
  /// The reducer, printing every action it receives and the change it made to the state, as
  /// the inspector's `diff` shows it — the upstream habit, in a terminal.
  ///
  /// ```swift
  /// Store(initialState: Counter.State()) { Counter()._printChanges() }
  /// // received action:
  /// //   .plus
  /// //   Counter.State(
  /// // -   count: 0,
  /// // +   count: 1,
  /// //     … (1 unchanged)
  /// //   )
  /// ```
  ///
  /// The state is encoded before and after every action (as the Recorder's keyframes are):
  /// a debugging aid, not for a release build.
  ///
  /// - Parameter write: Where the text goes; standard output by default.
  public func _printChanges(
    _ write: @escaping @Sendable (String) -> Void = { text in
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, write: write)
  }
}

/// The reducer `Reducer._printChanges(_:)` returns.
public struct _PrintChangesReducer<Base: Reducer>: Reducer
where Base.State: Encodable, Base.Action: Encodable {
  let base: Base
  let write: @Sendable (String) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let encoder = TraceValueEncoder()
    let old = Result { try encoder.encode(state) }
    let effects = base.reduce(into: &state, action: action)
    let new = Result { try encoder.encode(state) }
    var text = "received action:\n"
    switch Result(catching: { try encoder.encode(action) }) {
    case let .success(value): text += "  \(value)\n"
    case let .failure(error): text += "  (the action could not be encoded: \(error))\n"
    }
    switch (old, new) {
    case let (.success(old), .success(new)) where old == new:
      text += "  (No state changes)\n"
    case let (.success(old), .success(new)):
      DiffRenderer(width: 100).render(
        from: old, to: new, typeName: typeName(Base.State.self), into: &text)
    case let (.failure(error), _), let (_, .failure(error)):
      text += "  (the state could not be encoded: \(error))\n"
    }
    write(text + "\n")
    return effects
  }

  /// `Counter.State` for `CounterFeature.Counter.State` (and for a private type, printed as
  /// `Module.(unknown context at $55bf…).Counter.State`).
  private func typeName(_ type: Any.Type) -> String {
    var full = String(reflecting: type)
    while let start = full.range(of: "(unknown context at "),
      let end = full[start.upperBound...].range(of: ").")
    {
      full.removeSubrange(start.lowerBound..<end.upperBound)
    }
    guard let dot = full.firstIndex(of: ".") else { return full }
    return String(full[full.index(after: dot)...])
  }
}
