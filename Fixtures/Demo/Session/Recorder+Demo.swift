import TraceRecorder

extension Recorder {
  /// The recorder of a demo session: `extra` is stored with `app` set to `rewind-demo`, the
  /// times are `clock`'s (nil: the system's), `live` lets an inspector attach, a nil `path`
  /// records in memory only (then `live` is on), and a configuration the recorder refuses is
  /// a `DemoError` (exit status 2).
  ///
  /// ```swift
  /// let recorder = try Recorder.demo(path: "/tmp/t.rewind", extra: ["mode": "run"])
  /// ```
  static func demo(
    path: String?, extra: [String: String], clock: (any Clock<Duration>)? = nil,
    live: Bool = false
  ) throws(DemoError) -> Recorder {
    let configuration = Recorder.Configuration(
      extra: extra.merging(["app": "rewind-demo"]) { _, demo in demo }, clock: clock,
      live: live ? Recorder.Live() : nil)
    do {
      if let path { return try Recorder(path: path, configuration: configuration) }
      return try Recorder(configuration: configuration)
    } catch {
      throw DemoError.configuration(error)
    }
  }
}
