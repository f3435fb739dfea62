import ComposableCore

/// The interface of the climbing calendar's implementation (see `FolderReducer` for why a
/// protocol that parents are generic over, rather than an existential).
///
/// ```swift
/// struct FolderTab<…, Calendar: CalendarReducer>: Reducer { let calendar: Calendar … }
/// ```
public protocol CalendarReducer: Reducer, Sendable
where State == CalendarState, Action == CalendarAction {}
