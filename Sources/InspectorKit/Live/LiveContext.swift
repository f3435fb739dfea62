import LiveAttach

/// What a live command needs: its arguments, where apps listen, and how to write.
struct LiveContext {
  var arguments: ParsedArguments
  /// The user's live directory (`LiveDirectory.location`).
  var location: String
  var terminal: any Terminal
  var style: Style
  var interruption: Interruption

  var command: String { arguments.command }

  /// The app the command names, asked who it is.
  func app() throws(InspectorError) -> LiveApps.App {
    let target = arguments.positionals[0]
    do {
      return try LiveApps.find(target, in: location)
    } catch {
      throw .input(error.description, where: command)
    }
  }

  /// A connection to the app.
  func connect(_ app: LiveApps.App) throws(InspectorError) -> LiveClient {
    do {
      return try LiveClient(socketPath: app.socketPath)
    } catch {
      throw failure(error, app)
    }
  }

  /// The inspector's error for what the app said or did: a refusal is a failed check (exit
  /// status 1); an app that cannot be reached or understood is unreadable input (2).
  func failure(_ error: LiveClientError, _ app: LiveApps.App) -> InspectorError {
    let place = "\(command) \(app.welcome.name), pid \(app.welcome.pid)"
    return InspectorError(error.isRefusal ? .checkFailed : .input, error.description, where: place)
  }
}
