// A trace is made of TraceValues' values, paths and changes: every client of TraceKit uses
// them, so importing TraceKit brings them along (as it did when they lived here).
@_exported import TraceValues
