import CounterFeature

/// The counter workload: the fixtures' `Counter` feature driven by a fixed sequence of taps
/// (mostly plus, some minus, a reset every 100 steps), so every run records the same trace.
///
/// ```swift
/// CounterScript.action(at: 1)    // .plus
/// CounterScript.action(at: 3)    // .minus
/// CounterScript.action(at: 100)  // .reset
/// ```
enum CounterScript {
  static func action(at step: Int) -> Counter.Action {
    if step % 100 == 0 { return .reset }
    return step % 3 == 0 ? .minus : .plus
  }
}
