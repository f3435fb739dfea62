import ComposableCore

extension EffectCancelCause {
  /// The `cancel_reason` the trace stores for the cause.
  ///
  /// ```swift
  /// EffectCancelCause.teardown(.forEach).traceReason  // "forEach"
  /// ```
  var traceReason: String {
    switch self {
    case .cancel: "cancel"
    case .cancelInFlight: "cancelInFlight"
    case .teardown(let kind): kind.rawValue
    case .storeTeardown: "storeDeinit"
    case .storeTask: "storeTask"
    case .testSkip: "skippedInFlight"
    case .abandonedFuture: "abandonedFuture"
    }
  }
}
