import Foundation

/// Where the package's built executables are, found from the test bundle: SwiftPM puts the
/// `.xctest` bundle in `.build/<configuration>` next to the executables it built.
public enum BuiltProducts {
  /// The directory that holds the test bundle and the executables.
  public static var directory: URL {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    // Linux runs the test bundle as an executable: its own path is the bundle.
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return executable.deletingLastPathComponent()
  }

  /// The path of a built executable, or an error that says how to build it.
  public static func executable(_ name: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw MissingExecutable(name: name, searched: directory.path)
    }
    return url.path
  }

  public struct MissingExecutable: Error, CustomStringConvertible {
    public var name: String
    public var searched: String
    public var description: String {
      "executable '\(name)' not found in \(searched): build it first with "
        + "`swift build --build-tests` (or `swift build --product \(name)`)"
    }
  }
}
