import Foundation

/// Report lines, written straight to the file descriptor: each line appears as its case
/// finishes, also when stdout is a pipe (`tools/bench | tee`).
enum Output {
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
