/// Where a value is while AutoMap's `Decoder` or `Encoder` works on it: a parent-linked list,
/// one node per step, turned into arrays only when asked (`codingPath`) or when an error is
/// made. Each key step keeps both the `CodingKey` (what `Codable` code sees) and the JSON key
/// (what the document holds, after the key style), so errors name the document's path.
indirect enum CodingPath {
  case root
  case key(any CodingKey, json: String, parent: CodingPath)
  case index(Int, parent: CodingPath)

  func appending(_ key: any CodingKey, json: String) -> CodingPath {
    .key(key, json: json, parent: self)
  }

  func appending(index: Int) -> CodingPath { .index(index, parent: self) }

  /// The `CodingKey`s from the root, as `Decoder.codingPath` reports them.
  var codingKeys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while true {
      switch node {
      case .root: return keys.reversed()
      case .key(let key, _, let parent):
        keys.append(key)
        node = parent
      case .index(let index, let parent):
        keys.append(AnyCodingKey(index: index))
        node = parent
      }
    }
  }

  /// The path as the document's keys and indices, outermost first.
  var components: [JSON.Error.Component] { locate(JSON.Error(.custom, "")).reversedPath.reversed() }

  /// Prefixes `error`'s path with this one (`error` is relative to this position).
  func locate(_ error: JSON.Error) -> JSON.Error {
    var located = error
    var node = self
    while true {
      switch node {
      case .root: return located
      case .key(_, let json, let parent):
        located = located.prefixed(key: json)
        node = parent
      case .index(let index, let parent):
        located = located.prefixed(index: index)
        node = parent
      }
    }
  }
}

/// A `CodingKey` for any string or position: JSON's own keys, array positions in coding
/// paths, the `super` key.
struct AnyCodingKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }

  /// A position in an unkeyed container, spelled as Foundation's coders spell it.
  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  static let `super` = AnyCodingKey(stringValue: "super")

  /// Whether this key is a position made by ``init(index:)`` (or by Foundation's coders).
  var isIndex: Bool { intValue.map { stringValue == "Index \($0)" } ?? false }
}

extension JSON.Error {
  /// The `CodingKey`s of this error's path, outermost first.
  var codingKeys: [any CodingKey] {
    reversedPath.reversed().map { component in
      switch component {
      case .key(let key): AnyCodingKey(stringValue: key)
      case .index(let index): AnyCodingKey(index: index)
      }
    }
  }
}
