import TraceKit

/// The inspector's structural `-`/`+` diff, without colour, for the package's other modules
/// (the Recorder's `_printChanges()`): one renderer for every diff a person reads.
///
/// ```swift
/// var out = ""
/// writePlainDiff(from: old, to: new, typeName: "Counter.State", width: 100, into: &out)
/// //   Counter.State(
/// // -   count: 1,
/// // +   count: 2,
/// //     … (1 unchanged)
/// //   )
/// ```
package func writePlainDiff(
  from old: TraceValue, to new: TraceValue, typeName: String?, width: Int,
  into out: inout some TextOutputStream
) {
  DiffRenderer(width: width).render(from: old, to: new, typeName: typeName, into: &out)
}
