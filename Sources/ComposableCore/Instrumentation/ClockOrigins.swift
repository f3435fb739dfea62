/// The first `now` read from each clock type, which later readings are measured from: an
/// instant means nothing across processes, the time since the first reading does. A root core
/// reports its reducers' clock reads so; typed replay measures the reads it hears the same way.
///
/// ```swift
/// var origins = ClockOrigins()
/// origins.offset(of: clock.now, on: ContinuousClock.self)  // .zero (the first reading)
/// origins.offset(of: clock.now, on: ContinuousClock.self)  // the time since it
/// ```
package struct ClockOrigins {
  private var origins: [ObjectIdentifier: any Sendable] = [:]

  package init() {}

  /// The time from the first reading of `clock` to `instant` (`.zero` for the first).
  package mutating func offset<C: Clock>(of instant: C.Instant, on clock: C.Type) -> Duration
  where C.Duration == Duration {
    let key = ObjectIdentifier(clock)
    if let origin = origins[key] as? C.Instant { return origin.duration(to: instant) }
    origins[key] = instant
    return .zero
  }
}
