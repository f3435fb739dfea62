import ComposableCore
import Foundation

/// A feature no fixture has, for the type table and the tests testgen writes from it: an
/// optional child presented later, an enum with associated values, an identified array of
/// structs with a Tagged-like id, a `[String: Int]`, a `String`-backed enum, a `Date` and a
/// `URL` that appear later.
struct Bookcase: Reducer {
  /// A bug a test switches on around a generated test, to see that test fail.
  enum Bug: Sendable { case ratingIgnoresStars }

  /// The bug of the `Bookcase()` made where it is set.
  @TaskLocal static var bug: Bug?

  let bug: Bug?

  init(bug: Bug? = Bookcase.bug) { self.bug = bug }

  /// An id wrapping a UUID, coded as the UUID alone (like Tagged).
  struct BookID: Hashable, Codable, Sendable, RawRepresentable {
    var rawValue: UUID

    init(rawValue: UUID) { self.rawValue = rawValue }
    init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(UUID.self)
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }

  struct Book: Codable, Equatable, Identifiable, Sendable {
    var id: BookID
    var title: String
    var isRead = false
  }

  enum Sort: String, Codable, Sendable { case title, recent }

  enum Status: Codable, Equatable, Sendable {
    case idle
    case failed(reason: String, code: Int)
  }

  struct Editor: Codable, Equatable, Sendable {
    var query = ""
    var suggestions: [String] = []
  }

  struct State: Codable, Equatable, Sendable {
    var books: IdentifiedArrayOf<Book> = []
    var editor: Editor?
    var status = Status.idle
    var ratings: [String: Int] = [:]
    var sort = Sort.title
    var openedAt: Date?
    var link: URL?
  }

  enum Action: Codable, Equatable, Sendable {
    case add(title: String)
    case toggle(BookID)
    case openEditor
    case query(String)
    case rate(String, Int)
    case fail(reason: String, code: Int)
    case sortBy(Sort)
    case remove(BookID)
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.starLimit) var starLimit
  @Dependency(\.shelfName) var shelfName

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.books.append(Book(id: BookID(rawValue: uuid()), title: title))
    case .toggle(let id):
      state.books[id: id]?.isRead.toggle()
    case .openEditor:
      state.editor = Editor()
      state.openedAt = date.now
      state.link = URL(string: "https://example.com/\(shelfName)?q=1")
    case .query(let query):
      state.editor?.query = query
      state.editor?.suggestions = [query + "!", query + "?"]
    case .rate(let title, let stars):
      state.ratings[title] = bug == .ratingIgnoresStars ? 1 : min(stars, starLimit)
    case .fail(let reason, let code):
      state.status = .failed(reason: reason, code: code)
    case .sortBy(let sort):
      state.sort = sort
    case .remove(let id):
      state.books.remove(id: id)
    }
    return .none
  }
}

/// The most stars a rating keeps: a client whose key a generated test can name.
enum StarLimitKey: DependencyKey {
  static let liveValue = 5
  static let testValue = 5
}

/// The shelf's name in its link: a client whose key is private, so a generated test cannot
/// name it.
private enum ShelfNameKey: DependencyKey {
  static let liveValue = "bookcase"
  static let testValue = "bookcase"
}

extension DependencyValues {
  var starLimit: Int {
    get { self[StarLimitKey.self] }
    set { self[StarLimitKey.self] = newValue }
  }

  var shelfName: String {
    get { self[ShelfNameKey.self] }
    set { self[ShelfNameKey.self] = newValue }
  }
}
