import ComposableCore

/// The interface of the folder grid's implementation.
///
/// Seed 000 tried to hold an existential `CalendarReducerProtocol` and compose it with `Scope`,
/// and failed: composition needs a concrete reducer type. A parent that is generic over a type
/// conforming to this protocol composes it statically instead, and never imports the
/// implementation's module:
///
/// ```swift
/// struct FolderTab<Folder: FolderReducer, …>: Reducer {
///   let folder: Folder
///   var body: some ReducerOf<Self> {
///     Scope(state: \.folder, action: .folder) { folder }
///   }
/// }
/// ```
public protocol FolderReducer: Reducer, Sendable
where State == FolderState, Action == FolderAction {}
