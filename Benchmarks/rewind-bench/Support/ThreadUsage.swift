#if canImport(Glibc)
  import Glibc
#endif

/// The calling thread's page faults and context switches so far (`getrusage(RUSAGE_THREAD)`;
/// zero where that does not exist): read around a sample of sends, outside its timing, to say
/// where a thread's CPU time went besides its instructions. Exact counts, unlike `ru_stime`:
/// a kernel with tick-based accounting (as on the bench's host, 250 Hz) splits user from system
/// time by where its ticks land, which says nothing about a 15 ms sample, so it is not read.
///
/// ```swift
/// let before = ThreadUsage.now()
/// // … sends …
/// let used = ThreadUsage.now() - before   // used.minorFaults: faults taken by this thread
/// ```
struct ThreadUsage {
  var minorFaults: Double = 0
  var voluntarySwitches: Double = 0
  var involuntarySwitches: Double = 0

  static func now() -> ThreadUsage {
    #if canImport(Glibc)
      var usage = rusage()
      // RUSAGE_THREAD (1): the Glibc module does not define _GNU_SOURCE, which names it.
      guard getrusage(__rusage_who_t(1), &usage) == 0 else { return ThreadUsage() }
      return ThreadUsage(
        minorFaults: Double(usage.ru_minflt), voluntarySwitches: Double(usage.ru_nvcsw),
        involuntarySwitches: Double(usage.ru_nivcsw))
    #else
      return ThreadUsage()
    #endif
  }

  /// Voluntary and involuntary context switches.
  var switches: Double { voluntarySwitches + involuntarySwitches }

  static func + (lhs: ThreadUsage, rhs: ThreadUsage) -> ThreadUsage {
    ThreadUsage(
      minorFaults: lhs.minorFaults + rhs.minorFaults,
      voluntarySwitches: lhs.voluntarySwitches + rhs.voluntarySwitches,
      involuntarySwitches: lhs.involuntarySwitches + rhs.involuntarySwitches)
  }

  static func - (lhs: ThreadUsage, rhs: ThreadUsage) -> ThreadUsage {
    ThreadUsage(
      minorFaults: lhs.minorFaults - rhs.minorFaults,
      voluntarySwitches: lhs.voluntarySwitches - rhs.voluntarySwitches,
      involuntarySwitches: lhs.involuntarySwitches - rhs.involuntarySwitches)
  }

  /// Each count divided by `count` (per send).
  func per(_ count: Int) -> ThreadUsage {
    let n = Double(count)
    return ThreadUsage(
      minorFaults: minorFaults / n, voluntarySwitches: voluntarySwitches / n,
      involuntarySwitches: involuntarySwitches / n)
  }
}
