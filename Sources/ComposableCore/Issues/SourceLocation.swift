/// A place in the source: `fileID:line:column`.
///
/// Holds the static strings themselves: locations are captured on every action (reducer
/// bodies are rebuilt per action), and turning them into `String`s would allocate each time.
///
/// ```swift
/// SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
///   .description  // "App/Feature.swift:12"
/// ```
@usableFromInline
package struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let staticFileID: StaticString
  @usableFromInline let staticFilePath: StaticString
  @usableFromInline package let line: UInt
  @usableFromInline package let column: UInt

  @inlinable
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.staticFileID = fileID
    self.staticFilePath = filePath
    self.line = line
    self.column = column
  }

  /// `Module/File.swift`.
  package var fileID: String { "\(staticFileID)" }
  /// The full path of the file.
  package var filePath: String { "\(staticFilePath)" }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.line == rhs.line && lhs.column == rhs.column && lhs.fileID == rhs.fileID
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(line)
    hasher.combine(column)
  }

  @usableFromInline package var description: String { "\(fileID):\(line)" }
}
