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
  var embeddedJSON = false
  /// The property's own key style (`.keyStyle`), over the model's and the call's.
  var keyStyle: JSON.KeyStyle?
  /// `.schema`: the property's JSON Schema, read only by ``SchemaBuilder``.
  var schema: JSON?

  /// No option at all.
  var isEmpty: Bool { isOnly(ignore: false) }

  /// `.ignore` and nothing else.
  var isOnlyIgnore: Bool { ignore && isOnly(ignore: true) }

  private func isOnly(ignore: Bool) -> Bool {
    index == nil && alternativeIndex == nil && transform == nil && !hasDefaultValue && !nonNil
      && self.ignore == ignore && !ignoreIfNull && !lossy && !lossless && !emptyAsNil
      && !ignoreIfEmpty && decodeIndex == nil && encodeIndex == nil && !decodeOnly && !encodeOnly
      && !embeddedJSON && keyStyle == nil
  }

  /// Where decoding reads: `.decodeIndex`, else `.index`, else the key for `name`.
  func readIndex(_ name: String, _ style: JSON.KeyStyle) -> JSON.Index {
    decodeIndex ?? index ?? .key((keyStyle ?? style).key(for: name))
  }

  /// Where encoding writes: `.encodeIndex`, else `.index`, else the key for `name`.
  func writeIndex(_ name: String, _ style: JSON.KeyStyle) -> JSON.Index {
    encodeIndex ?? index ?? .key((keyStyle ?? style).key(for: name))
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
      case .embeddedJSON: embeddedJSON = true
      case .keyStyle(let style): keyStyle = style
      case .schema(let schema): self.schema = schema
      case .combined: break  // flattened away
      }
    }
  }

  /// The property's transform: its `.transform`, or the one `.embeddedJSON` makes from
  /// `make`.
  func transform(embedding make: () -> any Transform) -> (any Transform)? {
    embeddedJSON ? make() : transform
  }

  /// Options are checked against the model's properties: every key must name one.
  static func resolve(
    _ options: [String: SpecificOption], fields: [ReflectedField], model: String
  ) throws -> [String: FieldOptions] {
    let names = Set(fields.map(\.name))
    // A wrapped or observed property's options may also name its storage (`_count`).
    let storage = Dictionary(
      fields.filter { $0.role == .wrapperStorage || $0.role == .observedStorage }
        .map { ($0.storageName, $0.name) },
      uniquingKeysWith: { first, _ in first })
    var resolved: [String: FieldOptions] = [:]
    for (name, option) in options.sorted(by: { $0.key < $1.key }) {
      guard let property = names.contains(name) ? name : storage[name] else {
        throw JSON.Error(
          .invalidModel,
          "\(model).specificOptions() names \"\(name)\", which is not a stored property of \(model)"
            + " (properties: \(fields.map(\.name).joined(separator: ", ")))")
      }
      let resolvedOption = FieldOptions(option)
      if resolvedOption.keyStyle == .caseInsensitive {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property) has .keyStyle(.caseInsensitive), which only a model or a call can"
            + " have (keys are matched in one way per model): set the model's keyStyle, or give"
            + " the property its exact key with .index")
      }
      if resolvedOption.embeddedJSON, resolvedOption.transform != nil {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property) has both .embeddedJSON and .transform: give the transform's"
            + " JSON-side type to a property of its own, or convert in init(decode:)")
      }
      resolved[property] = resolvedOption
    }
    return resolved
  }

  /// Whether `property` is storage the engine never maps (weak and unowned references,
  /// `lazy` storage); such a property may carry `.ignore` but no other option.
  static func isUnmapped(_ property: ReflectedField, _ option: FieldOptions, model: String) throws
    -> Bool
  {
    let what: String
    if !property.isStrong {
      what = "a weak or unowned reference"
    } else if property.role == .lazyStorage {
      what = "lazy"
    } else if property.role == .observationRegistrar {
      what = "the @Observable macro's registrar"
    } else {
      return false
    }
    guard option.isEmpty || option.isOnlyIgnore else {
      throw JSON.Error(
        .invalidModel,
        "\(model).\(property.name) is \(what), which AutoMap never maps: remove its options")
    }
    return true
  }
}
