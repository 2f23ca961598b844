/// One property's options, resolved from ``SpecificOption`` values.
struct FieldOptions {
  var index: JSON.Index?
  var alternativeIndex: JSON.Index?
  var transform: (any Transform)?
  /// Never an `Optional` box: a `.defaultValue(nil)` is stored as `Optional<Any>.none`.
  var defaultValue: Any?
  var hasDefaultValue = false
  var nonNil = false
  var ignore = false
  var ignoreIfNull = false
  var lossy = false
  var lossless = false
  var emptyAsNil = false
  var ignoreIfEmpty = false
  var decodeIndex: JSON.Index?
  var encodeIndex: JSON.Index?
  var decodeOnly = false
  var encodeOnly = false

  /// Where decoding reads: `.decodeIndex`, else `.index`, else the key for `name`.
  func readIndex(_ name: String, _ style: JSON.KeyStyle) -> JSON.Index {
    decodeIndex ?? index ?? .key(style.key(for: name))
  }

  /// Where encoding writes: `.encodeIndex`, else `.index`, else the key for `name`.
  func writeIndex(_ name: String, _ style: JSON.KeyStyle) -> JSON.Index {
    encodeIndex ?? index ?? .key(style.key(for: name))
  }

  init(_ option: SpecificOption?) {
    for option in option?.flattened ?? [] {
      switch option {
      case .index(let index): self.index = index
      case .alternativeIndex(let index): alternativeIndex = index
      case .transform(let transform): self.transform = transform
      case .defaultValue(let value):
        defaultValue = value
        hasDefaultValue = true
      case .nonNil: nonNil = true
      case .ignore: ignore = true
      case .ignoreIfNull: ignoreIfNull = true
      case .lossy: lossy = true
      case .lossless: lossless = true
      case .emptyAsNil: emptyAsNil = true
      case .ignoreIfEmpty: ignoreIfEmpty = true
      case .decodeIndex(let index): decodeIndex = index
      case .encodeIndex(let index): encodeIndex = index
      case .decodeOnly: decodeOnly = true
      case .encodeOnly: encodeOnly = true
      case .combined: break  // flattened away
      }
    }
  }

  /// Options are checked against the model's properties: every key must name one.
  static func resolve(
    _ options: [String: SpecificOption], fields: [ReflectedField], model: String
  ) throws -> [String: FieldOptions] {
    let names = Set(fields.map(\.name))
    for name in options.keys.sorted() where !names.contains(name) {
      throw JSON.Error(
        .invalidModel,
        "\(model).specificOptions() names \"\(name)\", which is not a stored property of \(model)"
          + " (properties: \(fields.map(\.name).joined(separator: ", ")))")
    }
    return options.mapValues(FieldOptions.init)
  }
}
