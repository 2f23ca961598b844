import Foundation

extension JSON.Index {
  /// Makes an index from a JSON Pointer (RFC 6901): `"/data/users/0/name"`.
  ///
  /// Each reference token after a `/` is one step; `~1` stands for `/` and `~0` for `~`. A
  /// token made of digits (`0`, `12`, no leading zero) or `-` is a key in an object and a
  /// position in an array, whichever the value it meets is; any other token is a key. The
  /// empty pointer `""` is the whole document. The URI fragment form (`"#/a%20b"`) is read
  /// too, with its percent escapes decoded.
  ///
  /// ```swift
  /// let index = try JSON.Index(pointer: "/data/users/0/name")
  /// json[index]                                    // the same as json["data", "users", 0, "name"]
  /// let name = try String(jsonData: data, at: index)
  /// try JSON.Index(pointer: "/a~1b/m~0n")          // the keys "a/b", then "m~n"
  /// ```
  ///
  /// Setting through a pointer creates what is missing as a path of literals does: objects
  /// for keys, arrays for digit tokens; `-` appends to an existing array.
  ///
  /// An index made from a pointer finds the same values as one written as literals, but the
  /// two are not `==`: the digits of a pointer stay a token that may be either.
  ///
  /// - Throws: ``JSON/Error`` of kind ``JSON/Error/Kind/malformed(offset:line:column:)`` when
  ///   `pointer` does not start with `/`, or a `~` is not followed by `0` or `1`.
  public init(pointer: String) throws {
    self.init(steps: try Self.pointerTokens(pointer).map(Self.step(forToken:)))
  }

  /// The index as a JSON Pointer (RFC 6901): `/data/users/0/name`, `""` for the empty path.
  ///
  /// ```swift
  /// let index: JSON.Index = ["a/b", 0]
  /// index.pointer                                  // "/a~1b/0"
  /// try JSON.Index(pointer: index.pointer) == index  // false, but finds the same value
  /// ```
  public var pointer: String {
    JSON.Index.pointer(steps.map(\.token))
  }

  /// The reference tokens of the path, as a pointer would spell them (unescaped).
  var tokens: [String] { steps.map(\.token) }

  /// The step a pointer token makes: a key unless it could be an array position or `-`.
  static func step(forToken token: String) -> Step {
    token == "-" || arrayPosition(token) != nil ? .token(token) : .key(token)
  }

  /// A pointer written from unescaped reference tokens.
  static func pointer(_ tokens: [String]) -> String {
    var text = ""
    for token in tokens {
      text += "/"
      for character in token.unicodeScalars {
        switch character {
        case "~": text += "~0"
        case "/": text += "~1"
        default: text.unicodeScalars.append(character)
        }
      }
    }
    return text
  }

  /// The position an array-index token (RFC 6901: `0`, or digits with no leading zero)
  /// spells, or `nil` for any other token or one too large for an `Int`.
  static func arrayPosition(_ token: String) -> Int? {
    let bytes = token.utf8
    guard let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
      first != UInt8(ascii: "0") || bytes.count == 1
    else { return nil }
    var value = 0
    for byte in bytes {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      guard !overflow, !overflow2 else { return nil }
      value = sum
    }
    return value
  }

  /// The unescaped reference tokens of a pointer, or its URI fragment form.
  static func pointerTokens(_ pointer: String) throws -> [String] {
    var text = pointer
    if text.hasPrefix("#") {
      guard let decoded = String(text.dropFirst()).removingPercentEncoding else {
        throw malformedPointer(pointer, at: 0, "a bad percent escape in the URI fragment")
      }
      text = decoded
    }
    guard !text.isEmpty else { return [] }
    guard text.hasPrefix("/") else {
      throw malformedPointer(pointer, at: 0, "a JSON Pointer starts with \"/\"")
    }
    var tokens: [String] = []
    var token: [UInt8] = []
    var escaped = false
    var offset = 0
    for byte in text.utf8.dropFirst() {
      offset += 1
      if escaped {
        escaped = false
        switch byte {
        case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
        default: throw malformedPointer(pointer, at: offset, "\"~\" must be followed by 0 or 1")
        }
      } else if byte == UInt8(ascii: "~") {
        escaped = true
      } else if byte == UInt8(ascii: "/") {
        tokens.append(String(decoding: token, as: UTF8.self))
        token.removeAll(keepingCapacity: true)
      } else {
        token.append(byte)
      }
    }
    guard !escaped else {
      throw malformedPointer(pointer, at: offset + 1, "\"~\" must be followed by 0 or 1")
    }
    tokens.append(String(decoding: token, as: UTF8.self))
    return tokens
  }

  private static func malformedPointer(_ pointer: String, at offset: Int, _ rule: String)
    -> JSON.Error
  {
    JSON.Error(
      .malformed(offset: offset, line: 1, column: offset + 1),
      "malformed JSON Pointer \(JSON.string(pointer)) at byte \(offset): \(rule)")
  }
}

extension JSON.Index.Step {
  /// The step as a reference token: a key, or a position's digits.
  var token: String {
    switch self {
    case .key(let key): key
    case .position(let position): String(position)
    case .token(let token): token
    }
  }

  /// The step as an error path component, when the value it meets is not known: a pointer
  /// token is taken for a key.
  var component: JSON.Error.Component {
    switch self {
    case .key(let key): .key(key)
    case .position(let position): .index(position)
    case .token(let token): .key(token)
    }
  }
}

extension JSON {
  /// The value a JSON Pointer (RFC 6901) points to, or ``missing(_:)`` naming the path when
  /// it is not there or the pointer is malformed.
  ///
  /// ```swift
  /// let json: JSON = ["data": ["users": [["name": "Ada"]]]]
  /// String(json[pointer: "/data/users/0/name"])   // "Ada"
  /// ```
  public subscript(pointer pointer: String) -> JSON {
    do {
      return self[try Index(pointer: pointer)]
    } catch {
      return .missing(JSON.Error.wrapping(error))
    }
  }
}

extension JSON.Error {
  /// Where the failure is, as a JSON Pointer (RFC 6901): `/statuses/3/user/id`; `""` for
  /// the root.
  ///
  /// ```swift
  /// catch let error as JSON.Error {
  ///   error.path      // "statuses[3].user.id"
  ///   error.pointer   // "/statuses/3/user/id"
  /// }
  /// ```
  public var pointer: String {
    JSON.Index.pointer(
      reversedPath.reversed().map { component in
        switch component {
        case .key(let key): key
        case .index(let index): String(index)
        }
      })
  }
}
