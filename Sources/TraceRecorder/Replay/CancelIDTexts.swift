import ComposableCore

/// The cancellation ids of an effect as the trace writes them (`forEach(rows)#7, timer @
/// [forEach(rows)#7]`), made once per distinct list: describing a navigation path names its
/// key paths, which costs far more than looking the list up.
///
/// ```swift
/// let texts = CancelIDTexts()
/// texts.text(of: effect.cancelIDs)  // "search", described the first time only
/// ```
final class CancelIDTexts {
  private var texts: [[EffectCancelID]: String] = [:]

  func text(of ids: [EffectCancelID]) -> String? {
    guard !ids.isEmpty else { return nil }
    if let text = texts[ids] { return text }
    let text = ids.map(\.description).joined(separator: ", ")
    // Bounded: a trace of ever-new ids (forEach rows by new ids) starts again.
    if texts.count >= 4_096 { texts.removeAll(keepingCapacity: true) }
    texts[ids] = text
    return text
  }
}
