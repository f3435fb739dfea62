import FixtureSupport
import Foundation

/// A folder of climbing records, as the folder grid shows it.
public struct Folder: Identifiable, Equatable, Sendable, Codable {
  public var id: UUID
  public var name: String
  public var recordCount: Int
  /// The last day a record was added to the folder.
  public var lastClimbedOn: CalendarDay?

  public init(id: UUID, name: String, recordCount: Int = 0, lastClimbedOn: CalendarDay? = nil) {
    self.id = id
    self.name = name
    self.recordCount = recordCount
    self.lastClimbedOn = lastClimbedOn
  }
}
