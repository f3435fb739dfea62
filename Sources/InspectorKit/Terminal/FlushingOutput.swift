/// A text stream that can push what it holds to its destination (a file descriptor, or nowhere
/// for a string).
///
/// ```swift
/// var out = ""
/// out.write("step 1\n")
/// out.flush()  // a String has nowhere to push to: no-op
/// ```
public protocol FlushingOutput: TextOutputStream {
  mutating func flush()
}

extension String: FlushingOutput {
  public mutating func flush() {}
}
