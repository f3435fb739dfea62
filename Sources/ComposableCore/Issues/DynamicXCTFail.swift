#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fails the running XCTest test without linking XCTest: looks up `XCTFail` in the process
/// (it is loaded when tests run) once.
///
/// This is the fallback for test processes that report issues before ComposableTesting
/// installed its reporter (which also handles Swift Testing and points at the right line).
enum DynamicXCTFail {
  private typealias Function = @convention(thin) (String, StaticString, UInt) -> Void

  private static let function: Function? = {
    // XCTest.XCTFail(_: String, file: StaticString, line: UInt) -> ()
    let name = "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF"
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else {
      return nil
    }
    return unsafeBitCast(symbol, to: Function.self)
  }()

  static func fail(_ issue: ReportedIssue) {
    if let file = issue.staticFilePath {
      function?(issue.message, file, issue.line)
    } else {
      function?("\(issue.fileID):\(issue.line): \(issue.message)", #filePath, #line)
    }
  }
}
