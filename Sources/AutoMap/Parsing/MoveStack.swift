import Foundation

/// A growable stack that hands its top elements out as a new array by moving them, without
/// the retain/release pair per element that copying out of an `Array` would cost. The parser
/// pushes a container's elements here and pops them into an array of exactly the right
/// size when the container closes.
///
/// Invariants: `storage[0..<count]` are initialized, the rest is not. The deinitializer
/// destroys what is left, so a parse that throws halfway leaks nothing. The storage comes
/// from `malloc`, so that growing is one `realloc`: for a large stack (a wide object's
/// members) the C library moves the pages instead of copying them and touching new ones.
final class MoveStack<Element> {
  private var storage: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 256) {
    // `realloc` moves elements bit for bit, which every element type the parser stacks
    // allows (checked here, once per stack, rather than assumed).
    precondition(
      _isBitwiseTakable(Element.self) && MemoryLayout<Element>.alignment <= 16,
      "MoveStack needs elements that malloc aligns and realloc may move")
    self.capacity = capacity
    storage = Self.reallocate(nil, capacity: capacity)
  }

  deinit {
    storage.deinitialize(count: count)
    free(storage)
  }

  @inline(__always)
  func push(_ element: consuming Element) {
    if count == capacity { grow() }
    (storage + count).initialize(to: element)
    count += 1
  }

  /// The elements, valid until the next push: for a closure that reads them without
  /// capturing (and so retaining) the stack.
  var elements: UnsafePointer<Element> { UnsafePointer(storage) }

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
    storage = Self.reallocate(storage, capacity: capacity * 2)
    capacity *= 2
  }

  /// `realloc`, which moves the initialized elements with the block; trapping when memory is
  /// exhausted, as Swift's own allocation does.
  private static func reallocate(_ old: UnsafeMutablePointer<Element>?, capacity: Int)
    -> UnsafeMutablePointer<Element>
  {
    let bytes = capacity * MemoryLayout<Element>.stride
    guard let block = realloc(old, bytes) else {
      fatalError("out of memory: cannot allocate \(bytes) bytes for the parser's stack")
    }
    return block.bindMemory(to: Element.self, capacity: capacity)
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
