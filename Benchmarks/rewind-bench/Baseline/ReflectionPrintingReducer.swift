import ComposableCore

extension Reducer {
  /// Wraps the reducer the way the upstream library's `_printChanges()` does: keep the old
  /// state, run the reducer, then dump both states by reflection and print their line diff.
  ///
  /// ```swift
  /// let printed = PrintedChanges()
  /// let store = Store(initialState: TodoList.State(count: 10_000)) {
  ///   TodoList().printingChangesByReflection(to: printed)
  /// }
  /// store.send(.toggleCompleted(id: TodoList.id(3)))
  /// printed.printer.output.byteCount  // the bytes `_printChanges` would have printed
  /// ```
  func printingChangesByReflection(to printed: PrintedChanges) -> ReflectionPrintingReducer<Self> {
    ReflectionPrintingReducer(base: self, printed: printed)
  }
}

/// The reducer `printingChangesByReflection(to:)` returns.
struct ReflectionPrintingReducer<Base: Reducer>: Reducer {
  let base: Base
  let printed: PrintedChanges

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // Holding the old state while the base mutates the new one copies every mutated
    // collection (copy on write): upstream pays this too.
    let old = state
    let effects = base.reduce(into: &state, action: action)
    printed.printer.printChanges(action: action, old: old, new: state)
    return effects
  }
}

/// Where the reflection baseline prints: the text's size, not a terminal.
final class PrintedChanges {
  var printer = ReflectionChangePrinter()
}
