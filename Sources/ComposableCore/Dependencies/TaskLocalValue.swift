/// The value bound to `local` in the current task (or, outside a task, on the current thread),
/// or nil when none is: what `TaskLocal.get()` reads before it falls back to its default.
///
/// The runtime's own entry point, which `get()` calls: called here, the caller copies the value
/// at its own type (a few retains) instead of through the generic `get()`.
///
/// ```swift
/// taskLocalValue(of: DependencyValues.$current)  // nil outside any `withValue`
/// ```
@inlinable
func taskLocalValue<Value>(of local: TaskLocal<Value>) -> UnsafeMutableRawPointer? {
  runtimeTaskLocalValueGet(key: UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque()))
}

/// `swift_task_localValueGet`: the value bound to the task-local whose object is `key`.
@usableFromInline
@_silgen_name("swift_task_localValueGet")
func runtimeTaskLocalValueGet(key: UnsafeRawPointer) -> UnsafeMutableRawPointer?
