/// A growable stack that hands its top elements out as a new array by moving them, without
/// the retain/release pair per element that copying out of an `Array` would cost. The parser
/// pushes a container's elements here and pops them into an array of exactly the right
/// size when the container closes.
///
/// Invariants: `storage[0..<count]` are initialized, the rest is not. The deinitializer
/// destroys what is left, so a parse that throws halfway leaks nothing.
final class MoveStack<Element> {
  private var storage: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 256) {
    self.capacity = capacity
    storage = .allocate(capacity: capacity)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  @inline(__always)
  func push(_ element: consuming Element) {
    if count == capacity { grow() }
    (storage + count).initialize(to: element)
    count += 1
  }

  /// The element at `position`, which must be below `count`.
  @inline(__always)
  subscript(position: Int) -> Element {
    get { storage[position] }
    set { storage[position] = newValue }
  }

  /// Moves the elements from `base` to the top into a new array, leaving `count == base`.
  ///
  /// The array is made by `append(contentsOf:)` of a sequence that moves its elements,
  /// which the optimizer specializes for `Element`. `Array(unsafeUninitializedCapacity:)`
  /// allocates through a standard library function that is not specialized and looks up
  /// the array storage's generic metadata on every call: about 450 instructions per
  /// array, 3% of parsing twitter.json.
  func popArray(from base: Int) -> [Element] {
    let moved = count - base
    count = base
    var array: [Element] = []
    array.append(contentsOf: MovedElements(start: storage + base, count: moved))
    return array
  }

  private func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: storage, count: count)
    storage.deallocate()
    storage = larger
    capacity *= 2
  }
}

/// Elements moved out of memory the first time they are copied: a sequence to be consumed
/// once, by `Array.append(contentsOf:)`, which copies through ``_copyContents(initializing:)``.
private struct MovedElements<Element>: Sequence {
  let start: UnsafeMutablePointer<Element>
  let count: Int

  var underestimatedCount: Int { count }

  /// Only for the sequence protocol: `append(contentsOf:)` takes every element through
  /// `_copyContents`, then finds this iterator empty.
  struct Iterator: IteratorProtocol {
    mutating func next() -> Element? { nil }
  }

  func makeIterator() -> Iterator { Iterator() }

  func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>)
    -> (Iterator, Int)
  {
    let written = Swift.min(count, buffer.count)
    if let target = buffer.baseAddress { target.moveInitialize(from: start, count: written) }
    return (Iterator(), written)
  }
}
