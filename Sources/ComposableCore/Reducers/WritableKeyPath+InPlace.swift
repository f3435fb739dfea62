extension WritableKeyPath {
  /// Runs `body` on the value at this key path inside `root`, in place.
  ///
  /// When the path names stored properties only (`\.todos`, `\.settings.name`), the value is
  /// reached through its offset in `root`, kept for the key path object (`KeyPathOffsets`):
  /// the key-path runtime's projection is skipped. Any other path (computed, through a class,
  /// an optional or a subscript) goes through the key path.
  ///
  /// ```swift
  /// var state = Parent.State(todos: [a, b])
  /// (\Parent.State.todos).modify(in: &state) { $0.remove(at: 0) }  // state.todos == [b]
  /// ```
  @inlinable
  package func modify<Result>(in root: inout Root, _ body: (inout Value) -> Result) -> Result {
    modify(in: &root, offset: KeyPathOffsets.shared.offset(of: self), body)
  }

  /// `modify(in:_:)` with the offset already looked up (a reducer reaching the same path
  /// several times in one action looks it up once).
  @inlinable
  package func modify<Result>(
    in root: inout Root, offset: Int?, _ body: (inout Value) -> Result
  ) -> Result {
    guard let offset else {
      return body(&root[keyPath: self])
    }
    // `offset(of:)` is non-nil only for storage laid out inline in `Root`: that memory holds
    // a `Value`, as its documentation's example binds it.
    return withUnsafeMutablePointer(to: &root) { pointer in
      body(
        &UnsafeMutableRawPointer(pointer).advanced(by: offset)
          .assumingMemoryBound(to: Value.self).pointee)
    }
  }

  /// Reads a part of the value at this key path inside `root` (see `modify(in:_:)`).
  @inlinable
  package func read<Result>(in root: inout Root, _ body: (borrowing Value) -> Result) -> Result {
    read(in: &root, offset: KeyPathOffsets.shared.offset(of: self), body)
  }

  /// `read(in:_:)` with the offset already looked up (see `modify(in:offset:_:)`).
  @inlinable
  package func read<Result>(
    in root: inout Root, offset: Int?, _ body: (borrowing Value) -> Result
  ) -> Result {
    guard let offset else {
      return body(root[keyPath: self])
    }
    return withUnsafePointer(to: &root) { pointer in
      body(
        UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self)
          .pointee)
    }
  }
}
