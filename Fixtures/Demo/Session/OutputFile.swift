import Foundation

/// The trace file a session records to, checked before the Recorder starts, so that a path it
/// cannot create is one line before anything runs (and the Recorder never reports a failed
/// open of its own).
///
/// ```swift
/// try OutputFile.prepare("/nowhere/t.rewind", replacing: false)
/// // throws: cannot record to /nowhere/t.rewind: the directory /nowhere does not exist
/// ```
enum OutputFile {
  /// Throws unless `path` can be created: its directory exists and is writable, and nothing
  /// is there yet. With `replacing`, a file there (with its `-wal` and `-shm`) is removed.
  static func prepare(_ path: String, replacing: Bool) throws(DemoError) {
    let files = FileManager.default
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard files.fileExists(atPath: directory, isDirectory: &isDirectory) else {
      throw .output(path, reason: "the directory \(directory) does not exist")
    }
    guard isDirectory.boolValue else {
      throw .output(path, reason: "\(directory) is not a directory")
    }
    guard files.isWritableFile(atPath: directory) else {
      throw .output(path, reason: "the directory \(directory) is not writable")
    }
    guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
    guard !isDirectory.boolValue else { throw .output(path, reason: "it is a directory") }
    guard replacing else { throw .outputExists(path) }
    for file in [path, path + "-wal", path + "-shm"] where files.fileExists(atPath: file) {
      do {
        try files.removeItem(atPath: file)
      } catch {
        throw .output(path, reason: "\(file) cannot be removed")
      }
    }
  }
}
