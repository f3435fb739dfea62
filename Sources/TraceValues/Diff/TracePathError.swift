/// Why a text is not a state path: the column (1-based, in characters) and what was expected.
///
/// ```swift
/// do { _ = try TracePath(parsing: "todos[id 3]") } catch { print(error) }
/// // invalid path "todos[id 3]" at column 10: expected ':' after 'id'
/// ```
public struct TracePathError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text that was being read.
  public var text: String
  /// 1-based column, counted in characters.
  public var column: Int
  /// What the parser expected at that column.
  public var expected: String

  public init(text: String, column: Int, expected: String) {
    self.text = text
    self.column = column
    self.expected = expected
  }

  public var description: String {
    "invalid path \(TraceValue.string(text).jsonString) at column \(column): expected \(expected)"
  }
}
