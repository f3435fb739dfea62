// A test that imports ComposableTesting uses the test clocks without a second import.
@_exported import ComposableClocks
