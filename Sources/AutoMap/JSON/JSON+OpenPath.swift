extension JSON {
  /// The containers along a path into a value, each open at the slot the path goes through:
  /// the slot's value taken out (`null` in its place), so that every container and the value
  /// at the end are held once and change in place. A path of any length goes down and back
  /// up without recursion (setting through a subscript, applying a patch), so any thread's
  /// stack holds it.
  ///
  /// ```swift
  /// var path = OpenPath()
  /// var current = document
  /// document = .null  // our reference to the root is its only one
  /// path.enter(&current, key: "tags")
  /// path.enter(&current, position: 0)
  /// document = path.close(with: "math")  // document["tags", 0] is now "math"
  /// ```
  struct OpenPath {
    private enum Opened {
      case object(Object, key: String)
      case array([JSON], position: Int)
    }

    /// The open containers, outermost first.
    private var opened: [Opened] = []

    /// The path from the outermost container to the current value: what an error met there is
    /// prefixed with.
    var components: [Error.Component] {
      opened.map { container in
        switch container {
        case .object(_, let key): .key(key)
        case .array(_, let position): .index(position)
        }
      }
    }

    /// Goes into member `key` of the object `value` is (a new object when it is not one):
    /// `value` becomes that member, `null` when there is none (the member is added, at the
    /// end, when the path closes).
    mutating func enter(_ value: inout JSON, key: String) {
      var object: Object
      if case .object(let existing) = value { object = existing } else { object = Object() }
      value = .null  // our reference to the object is its only one
      let member = object[key] ?? .null
      object[key] = .null  // keeps the position; drops the object's reference to the member
      opened.append(.object(object, key: key))
      value = member
    }

    /// Goes into element `position` (not negative) of the array `value` is (a new array when
    /// it is not one; `null`s added up to `position` when it is shorter): `value` becomes that
    /// element.
    mutating func enter(_ value: inout JSON, position: Int) {
      var array: [JSON]
      if case .array(let existing) = value { array = existing } else { array = [] }
      value = .null
      while array.count <= position { array.append(.null) }
      let element = array[position]
      array[position] = .null
      opened.append(.array(array, position: position))
      value = element
    }

    /// Puts `value` into the slot of the innermost open container and closes it: that
    /// container, which the path is at now.
    mutating func leave(with value: JSON) -> JSON {
      guard let container = opened.popLast() else { return value }
      switch consume container {
      case .object(var object, let key):
        object[key] = value
        return .object(object)
      case .array(var array, let position):
        array[position] = value
        return .array(array)
      }
    }

    /// Puts `value` into the slot of the innermost open container, that container into its
    /// parent's, and so on out: the outermost container, with the path's end changed.
    mutating func close(with value: JSON) -> JSON {
      var value = value
      while !opened.isEmpty { value = leave(with: value) }
      return value
    }
  }
}
