import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The database file itself, below SQLite: created owner-only, locked by its writer for the
// writer's lifetime, and checked to still be where it was opened.
//
// A process must never close a descriptor of a database file that SQLite has open: POSIX
// drops every fcntl lock the process holds on the file when any descriptor of it closes, and
// SQLite's locks keep WAL files from being checkpointed and deleted under a live connection.
// So the writer's lock is a `flock` (independent of fcntl locks on Linux) on SQLite's own
// descriptor, never on one opened beside it.

extension SQLiteConnection {
  /// Creates an empty file readable and writable by its owner only. SQLite would create it
  /// with 0644 less the umask; an empty file is a valid empty database for it to open, and
  /// the `-wal`/`-shm` files it creates later copy the database file's mode exactly.
  static func createOwnerOnlyFile(_ path: String) throws(SQLiteError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw SQLiteError(
        code: SQLITE_CANTOPEN, message: "cannot create the file: \(systemError(errno))")
    }
    // The umask only ever removes bits from 0600; fchmod sets them exactly.
    let changed = fchmod(descriptor, 0o600) == 0 ? 0 : errno
    closeDescriptor(descriptor)
    guard changed == 0 else {
      unlink(path)
      throw SQLiteError(
        code: SQLITE_CANTOPEN, message: "cannot make the file owner-only: \(systemError(changed))")
    }
  }

  /// The descriptor SQLite reads and writes the main database through, or nil when it cannot
  /// be found safely (called once, right after the file was opened).
  ///
  /// SQLite has no call that returns it; `SQLITE_FCNTL_FILE_POINTER` returns its file object,
  /// whose layout in the default "unix" VFS has been `{methods, vfs, inode, int fd, …}` since
  /// 2008. The descriptor is used only when it is open on the very file at `path`.
  func findDatabaseDescriptor() -> Int32? {
    guard let vfs = sqlite3_vfs_find(nil), let name = vfs.pointee.zName,
      String(cString: name) == "unix"
    else { return nil }
    var file: UnsafeMutablePointer<sqlite3_file>?
    guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
      let file, file.pointee.pMethods != nil
    else { return nil }
    let descriptor = UnsafeRawPointer(file).load(
      fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.stride, as: Int32.self)
    guard descriptor >= 0, let opened = Self.identity(descriptor: descriptor),
      let named = Self.identity(path: path), opened == named
    else { return nil }
    return descriptor
  }

  /// Takes the writer's lock on the database file, waiting out a reader that is testing it;
  /// the kernel releases it when the process ends, however it ends. False when the file
  /// cannot be locked (the trace then cannot tell readers whether its writer lives).
  package func lockAsWriter() -> Bool {
    guard let descriptor = databaseDescriptor else { return false }
    while flock(descriptor, LOCK_EX) != 0 {
      if errno != EINTR { return false }
    }
    return true
  }

  /// Releases the writer's lock (before the connection closes, so a descriptor SQLite keeps
  /// open for a while cannot hold it).
  func unlockFile() -> Bool {
    guard let descriptor = databaseDescriptor else { return false }
    return flock(descriptor, LOCK_UN) == 0
  }

  /// Sends the database file's written pages to the disk (`fdatasync` on SQLite's own
  /// descriptor, which SQLite does only at the commits and checkpoints its `synchronous`
  /// setting asks for). False when the descriptor is unknown or the sync failed.
  package func syncFile() -> Bool {
    guard let descriptor = databaseDescriptor else { return false }
    while fdatasync(descriptor) != 0 {
      if errno != EINTR { return false }
    }
    return true
  }

  /// Whether a writer holds its lock on this database file: true or false, or nil when this
  /// connection cannot tell. A reader's test takes a shared lock for an instant and gives it
  /// back, so readers never block each other or the writer.
  package var isLockedByWriter: Bool? {
    guard let descriptor = databaseDescriptor else { return nil }
    if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
      flock(descriptor, LOCK_UN)
      return false
    }
    return errno == EWOULDBLOCK ? true : nil
  }

  /// Whether the path still names the file this connection has open: false once the file was
  /// removed or replaced (writes would go to a file nobody can reach), nil when unknown.
  package var isStillAtPath: Bool? {
    guard let descriptor = databaseDescriptor, let opened = Self.identity(descriptor: descriptor)
    else { return nil }
    return Self.identity(path: path) == opened
  }

  private struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
  }

  private static func identity(descriptor: Int32) -> FileIdentity? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  private static func identity(path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  static func systemError(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

private func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}
