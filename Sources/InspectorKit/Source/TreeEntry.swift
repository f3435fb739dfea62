/// One node of the stored reducer tree.
package struct TreeEntry: Sendable, Equatable {
  package var kind: String
  package var typeName: String
  package var statePath: String?
  package var actionPrefix: String?
  package var children: [TreeEntry]

  package init(
    kind: String, typeName: String, statePath: String? = nil, actionPrefix: String? = nil,
    children: [TreeEntry] = []
  ) {
    self.kind = kind
    self.typeName = typeName
    self.statePath = statePath
    self.actionPrefix = actionPrefix
    self.children = children
  }
}
