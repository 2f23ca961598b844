extension JSON: Sequence {
  /// Iterates over an array's elements, or an object's values, in order; other values have
  /// none. Use ``members`` for an object's keys too.
  ///
  /// ```swift
  /// for user in json["users"] { print(user["name"]) }
  /// for (key, value) in json.members { print(key, value) }
  /// ```
  public func makeIterator() -> IndexingIterator<[JSON]> {
    switch self {
    case .array(let array): array.makeIterator()
    case .object(let object): object.values.makeIterator()
    default: [].makeIterator()
    }
  }

  /// The number of elements or members.
  public var underestimatedCount: Int { count }

  /// The number of array elements or object members; 0 for other values.
  public var count: Int {
    switch self {
    case .array(let array): array.count
    case .object(let object): object.count
    default: 0
    }
  }

  /// Whether there is nothing to iterate over (``count`` is 0).
  public var isEmpty: Bool { count == 0 }

  /// An object's members as `(key, value)` pairs in order; empty for other values.
  public var members: [(key: String, value: JSON)] {
    guard case .object(let object) = self else { return [] }
    return object.members.map { (key: $0.key, value: $0.value) }
  }

  /// The elements, when this is an array.
  public var array: [JSON]? {
    if case .array(let array) = self { return array }
    return nil
  }

  /// The members, when this is an object.
  public var object: Object? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// The error of a ``missing(_:)`` value, else `nil`.
  public var error: Error? {
    if case .missing(let error) = self { return error }
    return nil
  }
}
