// The inspector executable: hands the command line to InspectorKit and exits with its status.
// Everything else (parsing, reading, rendering) lives in InspectorKit, where it is tested.

import Foundation
import InspectorKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let environment = ProcessInfo.processInfo.environment
var out = StandardStream.output
var err = StandardStream.error
let status = Inspector(environment: environment)
  .run(Array(CommandLine.arguments.dropFirst()), out: &out, err: &err)
exit(status)
