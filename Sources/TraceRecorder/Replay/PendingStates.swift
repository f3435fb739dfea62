/// A run of replayed states on its way from the replay thread to the checking stage: the
/// replay thread appends each state with its step, the stage moves the states out in order
/// and reads the steps in place, and the buffers are freed, with the states the stage did
/// not take (it stopped at a failing one), when the run goes.
///
/// Neither a state nor its step is copied on the way. An array of `(order, step, state)`
/// was: iterating it copied each element out, and taking the state out of the element
/// copied the state again, each copy retaining and releasing every buffer of the state and
/// the step's action, path and reads.
///
/// One thread at a time: the replay thread until it hands the run over, then the stage's.
///
/// ```swift
/// let run = PendingStates<String>(capacity: 2)
/// run.append(order: 0, step: first, state: "a")
/// run.append(order: 2, step: third, state: "b")
/// for index in 0..<run.count {
///   print(run.orders[index], run.takeState(at: index))  // prints "0 a", then "2 b"
/// }
/// ```
@usableFromInline
final class PendingStates<State> {
  /// Each state's replayed step (its place among the steps replayed, from 0).
  @usableFromInline let orders: UnsafeMutablePointer<Int>
  /// Each state's recorded step.
  @usableFromInline let steps: UnsafeMutablePointer<RecordedStep>
  /// The states after the steps; those from `taken` on are still here.
  @usableFromInline let states: UnsafeMutablePointer<State>
  @usableFromInline let capacity: Int
  /// How many states (and steps) were appended.
  @exclusivity(unchecked) @usableFromInline var count = 0
  /// How many states were moved out, from the front.
  @exclusivity(unchecked) @usableFromInline var taken = 0

  @inlinable
  init(capacity: Int) {
    orders = .allocate(capacity: capacity)
    steps = .allocate(capacity: capacity)
    states = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  deinit {
    (states + taken).deinitialize(count: count - taken)
    states.deallocate()
    steps.deinitialize(count: count)
    steps.deallocate()
    orders.deallocate()
  }

  /// Adds the state after `step`, the `order`th replayed; there must be room.
  @inlinable
  func append(order: Int, step: RecordedStep, state: __owned State) {
    precondition(count < capacity, "a run of pending states is full")
    orders[count] = order
    (steps + count).initialize(to: step)
    (states + count).initialize(to: state)
    count += 1
  }

  /// Moves the `index`th state out: the next one not taken (`index == taken`).
  @inlinable
  func takeState(at index: Int) -> State {
    precondition(index == taken && index < count, "pending states are taken in order, once")
    taken += 1
    return (states + index).move()
  }
}
