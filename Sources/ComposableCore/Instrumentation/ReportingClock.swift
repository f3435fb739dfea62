/// A clock that reports each `now` read on the thread of an instrumented reducer: what
/// `@Dependency(\.continuousClock)` gives a reducer while an instrument listens.
///
/// ```swift
/// @Dependency(\.continuousClock) var clock
/// let start = clock.now   // reported as .clockNow(…) for the step being reduced
/// ```
///
/// Sleeping, and reads from effects on other threads, go straight to the wrapped clock.
struct ReportingClock<Base: Clock>: Clock where Base.Duration == Duration {
  typealias Instant = Base.Instant

  let base: Base

  var now: Instant {
    ReducingContext.readClock(base)
  }

  var minimumResolution: Duration {
    base.minimumResolution
  }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

/// Wraps a clock so that its `now` reads are reported (an opened existential), for the reducing
/// core whose `hooks` are given.
///
/// The last clock wrapped is kept per reducing core, with its type and its bytes, and a clock
/// of the same type and the same bytes gets that wrapper again: the two are the same clock (a
/// clock without stored properties, such as `ContinuousClock`, or one whose stored references
/// are the same objects, which the kept wrapper keeps alive). Wrapping it per read cost a
/// dynamic cast and a generic metadata look-up (about 1,100 to 1,300 instructions a read). A
/// clock of no bytes is not compared (comparing its empty bytes cost about 60 instructions).
func reporting<C: Clock>(_ clock: C, hooks: ReducingHooks) -> any Clock<Duration>
where C.Duration == Duration {
  let type = ObjectIdentifier(C.self)
  // Padding is compared too: a difference there only costs a new wrapper.
  if hooks.reportingClockType == type,
    MemoryLayout<C>.size == 0
      || withUnsafeBytes(of: clock, { bytes in
        hooks.reportingClockBytes.withUnsafeBytes { $0.elementsEqual(bytes) }
      }),
    let kept = hooks.reportingClock
  {
    return kept
  }
  let wrapped = wrapping(clock)
  hooks.reportingClockType = type
  hooks.reportingClockBytes = withUnsafeBytes(of: clock) { Array($0) }
  hooks.reportingClock = wrapped
  return wrapped
}

private func wrapping<C: Clock>(_ clock: C) -> any Clock<Duration> where C.Duration == Duration {
  if clock is any ReportingClockMarker { return clock }
  return ReportingClock(base: clock)
}

/// Marks a clock that already reports, so it is not wrapped twice.
protocol ReportingClockMarker {}
extension ReportingClock: ReportingClockMarker {}
