extension JSON {
  /// A JSON Patch (RFC 6902): operations that change a document, applied in order and all or
  /// nothing.
  ///
  /// Read a patch from its JSON form, or build one from operations:
  ///
  /// ```swift
  /// let patch = try JSON.Patch(jsonString: """
  ///   [{"op": "replace", "path": "/name", "value": "Ada"},
  ///    {"op": "add", "path": "/tags/-", "value": "math"}]
  ///   """)
  /// let same: JSON.Patch = [.replace(["name"], "Ada"), .add(["tags", "-"], "math")]
  ///
  /// var document: JSON = ["name": "Grace", "tags": []]
  /// try document.apply(patch)                  // {"name":"Ada","tags":["math"]}
  /// let back = JSON.patch(from: document, to: ["name": "Grace", "tags": []])
  /// ```
  ///
  /// A patch addresses values as JSON Pointers do: every step of an operation's index is a
  /// reference token, a key in an object and a position in an array (so `["tags", 0]` and
  /// `try JSON.Index(pointer: "/tags/0")` are the same location), and `-` after an array is
  /// the place past its last element, where `add` appends.
  ///
  /// A patch is ``JSONCodable``: it maps to and from its JSON form (an array of operation
  /// objects) on every entry point, also as a property of a model.
  public struct Patch: Sendable, Hashable {
    /// The operations, applied in order.
    public var operations: [Operation]

    /// A patch of these operations.
    public init(_ operations: [Operation]) { self.operations = operations }

    /// One operation of a patch. The indices are read as JSON Pointers (see ``Patch``).
    public enum Operation: Sendable, Hashable {
      /// Adds `value` at the index: a new member of an object (or a new value for an existing
      /// one), an element inserted into an array before the position (`-`: appended), or the
      /// whole document. The container it goes into must exist.
      case add(JSON.Index, JSON)
      /// Removes the value at the index, which must exist.
      case remove(JSON.Index)
      /// Replaces the value at the index, which must exist.
      case replace(JSON.Index, JSON)
      /// Removes the value at `from` and adds it at `to`; `to` may not be inside `from`.
      case move(from: JSON.Index, to: JSON.Index)
      /// Adds a copy of the value at `from` at `to`.
      case copy(from: JSON.Index, to: JSON.Index)
      /// Fails the patch unless the value at the index equals `value` (numbers by value,
      /// objects in any order, strings by code points).
      case test(JSON.Index, JSON)

      /// The name of the operation, as the JSON form writes it: `"add"`, `"remove"` ….
      public var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
      }

      /// The location the operation changes or tests (`path` in the JSON form).
      public var path: JSON.Index {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _):
          path
        case .move(_, let path), .copy(_, let path): path
        }
      }

      /// The location a `move` or `copy` reads from.
      public var from: JSON.Index? {
        switch self {
        case .move(let from, _), .copy(let from, _): from
        default: nil
        }
      }

      /// The value an `add`, `replace` or `test` carries.
      public var value: JSON? {
        switch self {
        case .add(_, let value), .replace(_, let value), .test(_, let value): value
        default: nil
        }
      }
    }
  }
}

extension JSON.Patch: ExpressibleByArrayLiteral {
  /// A patch of these operations: `[.remove(["a"]), .add(["b"], 1)]`.
  public init(arrayLiteral operations: Operation...) { self.init(operations) }
}

extension JSON.Patch: JSONCodable {
  /// Reads a patch from its JSON form: an array of objects with `op`, `path`, and `value` or
  /// `from` as the operation needs. Members an operation does not use are ignored.
  ///
  /// - Throws: ``JSON/Error`` at the member that is missing or wrong: `[1].path: malformed
  ///   JSON Pointer …`, `[0].op: unknown operation "spam" …`.
  public init(decode json: JSON) throws {
    guard case .array(let elements) = json else {
      throw JSON.Error.mismatch(expected: "a JSON Patch (an array of operations)", found: json)
    }
    var operations: [Operation] = []
    operations.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
      do {
        operations.append(try Operation(decode: element))
      } catch {
        throw JSON.Error.wrapping(error).prefixed(index: position)
      }
    }
    self.init(operations)
  }

  /// The JSON form: `[{"op":"add","path":"/a","value":1}, …]`.
  public var json: JSON {
    .array(operations.map(\.json))
  }
}

extension JSON.Patch.Operation {
  init(decode json: JSON) throws {
    guard case .object(let object) = json else {
      throw JSON.Error.mismatch(expected: "a JSON Patch operation (an object)", found: json)
    }
    func pointer(_ key: String) throws -> JSON.Index {
      guard let member = object[key] else {
        throw JSON.Error(.missingValue, "missing \"\(key)\"", path: [.key(key)])
      }
      guard case .string(let text) = member else {
        throw JSON.Error.mismatch(expected: "a JSON Pointer string", found: member)
          .prefixed(key: key)
      }
      do {
        return try JSON.Index(pointer: text)
      } catch {
        throw JSON.Error.wrapping(error).prefixed(key: key)
      }
    }
    func value() throws -> JSON {
      guard let value = object["value"] else {
        throw JSON.Error(.missingValue, "missing \"value\"", path: [.key("value")])
      }
      return value
    }
    guard case .string(let name)? = object["op"] else {
      throw JSON.Error(
        object["op"] == nil ? .missingValue : .typeMismatch,
        object["op"] == nil ? "missing \"op\"" : "\"op\" must be a string", path: [.key("op")])
    }
    switch name {
    case "add": self = .add(try pointer("path"), try value())
    case "remove": self = .remove(try pointer("path"))
    case "replace": self = .replace(try pointer("path"), try value())
    case "move": self = .move(from: try pointer("from"), to: try pointer("path"))
    case "copy": self = .copy(from: try pointer("from"), to: try pointer("path"))
    case "test": self = .test(try pointer("path"), try value())
    default:
      throw JSON.Error(
        .typeMismatch,
        "unknown operation \(JSON.string(name)); expected add, remove, replace, move, copy or test",
        path: [.key("op")])
    }
  }

  /// The JSON form of the operation.
  var json: JSON {
    var object: JSON.Object = ["op": .string(name)]
    if let from { object["from"] = .string(from.pointer) }
    object["path"] = .string(path.pointer)
    if let value { object["value"] = value }
    return .object(object)
  }
}

extension JSON.Patch: CustomStringConvertible {
  /// The patch's JSON form, as compact text.
  public var description: String { json.description }
}
