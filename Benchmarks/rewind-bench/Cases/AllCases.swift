/// Every case, in the order a run prints them (the table order).
@MainActor
enum AllCases {
  static var list: [any BenchCase] {
    [
      SendOverheadCase.counter,
      SendAppCase(),
      SendOverheadCase.app,
      CaseKeyPathScopeCase(),
      RecordThroughputCase.counter,
      RecordThroughputCase.todos,
      RecordThroughputCase.app,
      RecordVsReflectionCase(),
      BytesPerStepCase(),
      WriteAmplificationCase(),
      SizeVsSnapshotsCase(),
      SeekCase(),
      ReplayCase(),
      TypedReplayCase.counter,
      TypedReplayCase.app,
      ChaosReplayCase(),
      MemoryCase(),
      InspectorCommandCase(name: "inspector.info.1m") { _ in ("info", []) },
      InspectorCommandCase(name: "inspector.log-tail.1m") { last in
        ("log", ["--from", String(max(0, last - 10))])
      },
      InspectorCommandCase(name: "inspector.show-mid.1m") { last in ("show", [String(last / 2)]) },
      InspectorCommandCase(name: "inspector.diff-mid.1m") { last in ("diff", [String(last / 2)]) },
      InspectorCommandCase.export,
      OpenFirstFrameCase(),
      OpenKeyCase(),
      OpenMemoryCase(),
      LiveSendOverheadCase(),
      LiveThroughputCase(),
      LiveStalledClientCase(),
    ]
  }
}
