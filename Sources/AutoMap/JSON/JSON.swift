/// A JSON value: the document model of AutoMap.
///
/// `JSON` is what you get from parsing text, what the mapping engine reads and writes, and a
/// convenient way to build documents by hand with literals:
///
/// ```swift
/// var json: JSON = ["name": "Ada", "tags": ["math", "engines"], "born": 1815, "alive": false]
/// json["tags", 2] = "poetry"          // setting through a path creates what is missing
/// let name = String(json["name"])     // "Ada"
/// let born = try Int(decode: json["born"])
/// print(json)                         // {"name":"Ada","tags":["math","engines","poetry"],...}
/// ```
///
/// ## Numbers and objects
///
/// Numbers are ``JSON/Number`` values, kept exactly as the text wrote them: integers over the
/// whole `Int64` and `UInt64` ranges, other numbers with their exact decimal value beside
/// their nearest `Double`. Objects are
/// ``JSON/Object`` values: they keep their members in document order, and two objects are
/// equal when they have the same members in any order.
///
/// ## Missing values
///
/// Reading a key or index that is not there never traps. It gives ``missing(_:)``, which
/// carries a ``JSON/Error`` naming the path that was asked for, so that `Int(json["x"])` is
/// `nil` and `try Int(decode: json["x"])` throws an error that says where the value was
/// expected.
public enum JSON: Sendable {
  /// JSON `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, integral or not.
  case number(Number)
  /// A string.
  case string(String)
  /// An array of values.
  case array([JSON])
  /// An object: string keys with values, in document order.
  case object(Object)
  /// No value: the result of reading a key or index that is not there. The error says
  /// which path was asked for and why it was not found. It is never written out.
  indirect case missing(Error)
}

extension JSON {
  /// The kind of value, for messages: `"null"`, `"bool"`, `"number"`, `"string"`,
  /// `"array"`, `"object"` or `"nothing"` for ``missing(_:)``.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "bool"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    case .missing: "nothing"
    }
  }

  /// Whether this is `null` or ``missing(_:)``: no usable value.
  public var isNullOrMissing: Bool {
    switch self {
    case .null, .missing: true
    default: false
    }
  }

  /// Whether this is ``missing(_:)``.
  public var isMissing: Bool {
    if case .missing = self { return true }
    return false
  }

  /// A short description of the value for error messages: its kind and, for scalars, the
  /// value itself (strings are cut after 40 characters).
  var briefDescription: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return "bool \(value)"
    case .number(let number): return "number \(number)"
    case .string(let string):
      let cut = string.count > 40 ? String(string.prefix(40)) + "…" : string
      return "string \(JSON.string(cut).description)"
    case .array(let array): return "array of \(array.count)"
    case .object(let object): return "object of \(object.count) members"
    case .missing: return "nothing"
    }
  }
}
