import Foundation

/// The live apps of this user, found through their sockets in the live directory.
///
/// ```swift
/// let found = try LiveApps.list(in: LiveDirectory.location(environment: env))
/// found.apps.map(\.welcome.name)   // ["rewind-demo"]
/// found.removed                    // [4242]: a killed app's socket, cleaned
/// let app = try LiveApps.find("rewind-demo", in: location)
/// ```
package enum LiveApps {
  /// One app that answered.
  package struct App: Sendable {
    package var socketPath: String
    package var welcome: LiveWelcome
  }

  /// What a look into the directory found.
  package struct Listing: Sendable {
    /// The apps that answered, by process id.
    package var apps: [App] = []
    /// Process ids whose sockets nobody listened on any more (removed).
    package var removed: [Int32] = []
    /// Sockets that could not be asked, and why.
    package var unreachable: [(pid: Int32, reason: String)] = []
  }

  /// Asks every socket of the directory at `location` who it is; removes the sockets nobody
  /// listens on (a killed app leaves its socket behind).
  ///
  /// - Throws: `LiveDirectoryError` when the directory is not the user's alone.
  package static func list(in location: String, timeout: Duration = .seconds(2))
    throws(LiveDirectoryError) -> Listing
  {
    var listing = Listing()
    guard let directory = try LiveDirectory.existing(at: location) else { return listing }
    for (pid, path) in try directory.sockets() {
      do {
        let client = try LiveClient(socketPath: path, timeout: timeout)
        listing.apps.append(App(socketPath: path, welcome: client.welcome))
        client.close()
      } catch {
        if case .unreachable(let system) = error, system.isRefused {
          // A socket file whose listener is gone: its process was killed. (A live app's
          // socket is listening from the moment it appears: it is bound under another name
          // and renamed into place.)
          directory.remove(path)
          listing.removed.append(pid)
        } else if case .unreachable(let system) = error, system.isMissing {
          continue
        } else {
          listing.unreachable.append((pid, error.description))
        }
      }
    }
    return listing
  }

  /// The app a command names: a process id, or the name an app listens under.
  ///
  /// - Throws: `LiveFindError` when nothing, or more than one app, matches.
  package static func find(_ target: String, in location: String)
    throws(LiveFindError) -> App
  {
    if let pid = Int32(target), pid > 0 {
      let path = LiveDirectory(path: location).socketPath(pid: pid)
      do {
        guard try LiveDirectory.existing(at: location) != nil else {
          throw LiveFindError.notFound(target)
        }
        let client = try LiveClient(socketPath: path)
        defer { client.close() }
        return App(socketPath: path, welcome: client.welcome)
      } catch let error as LiveFindError {
        throw error
      } catch let error as LiveDirectoryError {
        throw .directory(error)
      } catch let error as LiveClientError {
        if case .unreachable(let system) = error, system.isMissing || system.isRefused {
          throw .notFound(target)
        }
        throw .client(error)
      } catch {
        throw .notFound(target)
      }
    }
    let listing: Listing
    do {
      listing = try list(in: location)
    } catch {
      throw .directory(error)
    }
    let matches = listing.apps.filter { $0.welcome.name == target }
    switch matches.count {
    case 0: throw .notFound(target)
    case 1: return matches[0]
    default: throw .ambiguous(target, pids: matches.map(\.welcome.pid))
    }
  }
}

/// Why a command could not find the app it names.
package enum LiveFindError: Error, Sendable, Hashable, CustomStringConvertible {
  case notFound(String)
  case ambiguous(String, pids: [Int])
  case directory(LiveDirectoryError)
  case client(LiveClientError)

  package var description: String {
    switch self {
    case .notFound(let target):
      "no live app '\(target)' of this user (inspector ps lists them)"
    case .ambiguous(let name, let pids):
      "\(pids.count) live apps are named '\(name)' (pids "
        + pids.map(String.init).joined(separator: ", ") + "); give a pid"
    case .directory(let error): error.description
    case .client(let error): error.description
    }
  }
}
