import Foundation

/// An array or dictionary of an untyped graph (``JSON/init(jsonObject:)``), read without
/// letting Foundation bridge what it holds.
///
/// On Linux, reading an element of an `NSArray` or `NSDictionary` (subscript, iteration,
/// `as? [Any]`) bridges that element to a Swift array or dictionary, recursively: a container
/// that holds itself is bridged for ever, before the caller sees the element. So the
/// Foundation containers are read through `Mirror`, which hands over the objects they hold as
/// they are, and their identity is kept, so that the conversion finds cycles. Subclasses
/// (whose storage is their own) and other platforms iterate, which does not bridge there.
enum GraphContainer {
  case array([Any], identity: ObjectIdentifier?)
  case dictionary([(key: String, value: Any)], identity: ObjectIdentifier?)

  /// The container `value` is, or `nil` when it is none.
  ///
  /// - Throws: for a dictionary whose keys are not all strings.
  init?(_ value: Any) throws {
    if type(of: value) is AnyClass {
      if let array = value as? NSArray {
        self = .array(Self.elements(of: array), identity: ObjectIdentifier(array))
        return
      }
      if let dictionary = value as? NSDictionary {
        self = .dictionary(
          try Self.members(of: dictionary), identity: ObjectIdentifier(dictionary))
        return
      }
      return nil
    }
    if let array = value as? [Any] {
      self = .array(array, identity: nil)
    } else if let dictionary = value as? [String: Any] {
      self = .dictionary(dictionary.map { ($0.key, $0.value) }, identity: nil)
    } else if value is [AnyHashable: Any] {
      throw Self.nonStringKeys
    } else {
      return nil
    }
  }

  var identity: ObjectIdentifier? {
    switch self {
    case .array(_, let identity), .dictionary(_, let identity): identity
    }
  }

  /// The container as a `JSON` value, each element through `convert`; an error names its
  /// place. Members come in the order of their keys' bytes (a dictionary has no order).
  func converted(_ convert: (Any) throws -> JSON) throws -> JSON {
    switch self {
    case .array(let array, _):
      var elements: [JSON] = []
      elements.reserveCapacity(array.count)
      for (position, element) in array.enumerated() {
        do {
          elements.append(try convert(element))
        } catch {
          throw JSON.Error.wrapping(error).prefixed(index: position)
        }
      }
      return .array(elements)
    case .dictionary(let members, _):
      var object = JSON.Object()
      for member in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
        do {
          object[member.key] = try convert(member.value)
        } catch {
          throw JSON.Error.wrapping(error).prefixed(key: member.key)
        }
      }
      return .object(object)
    }
  }

  private static let nonStringKeys = JSON.Error(
    .typeMismatch, "a dictionary whose keys are not all strings")

  private static func isContainer(_ value: Any) -> Bool {
    value is NSArray || value is NSDictionary
  }

  private static func elements(of array: NSArray) -> [Any] {
    #if !canImport(ObjectiveC)
      if type(of: array) == NSArray.self || type(of: array) == NSMutableArray.self {
        let held = Mirror(reflecting: array).children.map(\.value)
        if held.count == array.count {
          // Only containers are kept raw: other values (a Swift value in its box) are read as
          // Foundation hands them over, which bridges nothing deeper.
          return held.enumerated().map { isContainer($1) ? $1 : array.object(at: $0) }
        }
      }
    #endif
    return array.map { $0 }
  }

  private static func members(of dictionary: NSDictionary) throws -> [(key: String, value: Any)] {
    var pairs: [(key: Any, value: Any)] = []
    pairs.reserveCapacity(dictionary.count)
    #if !canImport(ObjectiveC)
      if type(of: dictionary) == NSDictionary.self
        || type(of: dictionary) == NSMutableDictionary.self
      {
        for child in Mirror(reflecting: dictionary).children {
          let pair = Mirror(reflecting: child.value).children.map(\.value)
          guard pair.count == 2 else { break }
          let value = isContainer(pair[1]) ? pair[1] : dictionary.object(forKey: pair[0]) as Any
          pairs.append((pair[0], value))
        }
        if pairs.count != dictionary.count { pairs.removeAll() }
      }
    #endif
    if pairs.isEmpty { pairs = dictionary.map { ($0.key, $0.value) } }
    return try pairs.map { pair in
      guard let key = pair.key as? String else { throw nonStringKeys }
      return (key, pair.value)
    }
  }
}
