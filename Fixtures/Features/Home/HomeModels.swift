import Foundation

/// A child of the family.
public struct Child: Identifiable, Equatable, Sendable, Codable {
  public var id: String
  public var name: String
  public var nickname: String
  public var school: String

  public init(id: String, name: String, nickname: String, school: String) {
    self.id = id
    self.name = name
    self.nickname = nickname
    self.school = school
  }
}

/// One entry of a child's day: a class, an academy lesson, a pickup.
public struct Schedule: Identifiable, Equatable, Sendable, Codable {
  public var id: UUID
  public var childID: Child.ID
  public var title: String
  public var startsAt: Date

  public init(id: UUID, childID: Child.ID, title: String, startsAt: Date) {
    self.id = id
    self.childID = childID
    self.title = title
    self.startsAt = startsAt
  }
}
