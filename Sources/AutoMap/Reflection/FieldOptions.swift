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
