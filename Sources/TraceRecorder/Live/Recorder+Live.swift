extension Recorder {
  /// Live attach, switched on with `Recorder.Configuration(live: .init())`: the app keeps the
  /// last steps of its recording in memory and listens for an inspector of the same user on a
  /// Unix-domain socket in the user's runtime directory (`$XDG_RUNTIME_DIR/rewind/<pid>.sock`,
  /// else `rewind-<uid>` in the temporary directory; directory 0700, socket 0600, each peer's
  /// uid checked; never TCP).
  ///
  /// ```swift
  /// let recorder = try Recorder(
  ///   path: "session.rewind", configuration: .init(live: .init(name: "my-app")))
  /// // in another terminal:
  /// // $ inspector ps
  /// // $ inspector attach my-app          steps as they happen
  /// // $ inspector pause my-app           actions are held until resume
  /// // $ inspector jump my-app 12         the store shows the state after step 12
  /// // $ inspector resume my-app          back to the present; held actions reduced
  /// ```
  ///
  /// An attached inspector first receives the history, then each step as it is recorded. It
  /// can pause the store, jump to any step of the history (the state is decoded with the app's
  /// `Decodable` state), resume, continue from a jumped state (the effects of the abandoned
  /// future are cancelled), send an action (decoded with the app's `Decodable` action; its
  /// origin is `inspector`), and dump the history to a trace file. What it does to the store is
  /// recorded too, so the trace stays replayable. The protocol is docs/live-protocol.md.
  public struct Live: Sendable, Hashable {
    /// The name `inspector ps` shows and `inspector attach NAME` finds (nil: the process's
    /// executable name).
    public var name: String?
    /// The steps kept in memory: at least this many of the last ones (up to an eighth more).
    public var historySteps: Int
    /// The memory the history may take, in megabytes (estimated): older steps go first.
    public var historyMegabytes: Int
    /// The directory of the socket (nil: the user's live directory). Tests use their own.
    public var directory: String?

    public init(
      name: String? = nil, historySteps: Int = 10_000, historyMegabytes: Int = 64,
      directory: String? = nil
    ) {
      self.name = name
      self.historySteps = historySteps
      self.historyMegabytes = historyMegabytes
      self.directory = directory
    }
  }
}
