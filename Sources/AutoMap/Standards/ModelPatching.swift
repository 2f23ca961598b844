extension JSONDecodable where Self: JSONEncodable {
  /// Applies a JSON Patch (RFC 6902) to this model through its mapping: the patch's paths are
  /// the keys the model writes (its key style, `.index` paths and options, as `json` writes
  /// them), and the result is read back as `update(from:keyStyle:)` reads it.
  ///
  /// ```swift
  /// var user = try User(jsonData: data)             // keyStyle .snakeCase
  /// try user.apply([.replace(["display_name"], "Ada"), .remove(["nickname"])])
  /// ```
  ///
  /// All or nothing: when an operation fails or the patched document does not decode, the
  /// model is left as it was. A removed property is updated from `null`, as
  /// `update(from:keyStyle:)` reads it: an optional becomes `nil`, a property with
  /// `.defaultValue` takes it, a `DefaultInitable` model's property keeps its value, any other
  /// is an error. Properties the mapping does not write (`.ignore`) keep their values. For structs and classes mapped by
  /// reflection, as `update(from:keyStyle:)`; a class updates its object in place.
  public mutating func apply(_ patch: JSON.Patch, keyStyle: JSON.KeyStyle? = nil) throws {
    let patched = try ModelPatching.patched(self, keyStyle: keyStyle) { try $0.applying(patch) }
    try update(from: patched, keyStyle: keyStyle)
  }

  /// A copy of this model with a JSON Patch (RFC 6902) applied through its mapping; see
  /// `apply(_:keyStyle:)`.
  ///
  /// ```swift
  /// let renamed = try user.applying([.replace(["name"], "Ada")])
  /// ```
  ///
  /// A class gives a new object, decoded from the patched document (properties the mapping
  /// does not write take their defaults); the original is unchanged.
  public func applying(_ patch: JSON.Patch, keyStyle: JSON.KeyStyle? = nil) throws -> Self {
    try ModelPatching.copy(self, keyStyle: keyStyle) { try $0.applying(patch) }
  }

  /// Applies a JSON Merge Patch (RFC 7386) to this model through its mapping: the patch's
  /// keys are those the model writes, nested objects merge, `null` removes (an optional
  /// becomes `nil`). All or nothing, as `apply(_:keyStyle:)`.
  ///
  /// ```swift
  /// try settings.merge(patch: ["font": ["size": 14], "theme": nil])
  /// ```
  public mutating func merge(patch: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    let patched = try ModelPatching.patched(self, keyStyle: keyStyle) { $0.merging(patch: patch) }
    try update(from: patched, keyStyle: keyStyle)
  }

  /// A copy of this model with a JSON Merge Patch (RFC 7386) applied through its mapping;
  /// see `merge(patch:keyStyle:)` and, for classes, `applying(_:keyStyle:)`.
  ///
  /// ```swift
  /// let quieter = try settings.merging(patch: ["volume": 3])
  /// ```
  public func merging(patch: JSON, keyStyle: JSON.KeyStyle? = nil) throws -> Self {
    try ModelPatching.copy(self, keyStyle: keyStyle) { $0.merging(patch: patch) }
  }
}

extension JSONDecodable where Self: JSONEncodable & AnyObject {
  /// Applies a JSON Patch (RFC 6902) to this object in place, through its mapping (callable
  /// on a `let`); see the mutating `apply(_:keyStyle:)`.
  public func apply(_ patch: JSON.Patch, keyStyle: JSON.KeyStyle? = nil) throws {
    let patched = try ModelPatching.patched(self, keyStyle: keyStyle) { try $0.applying(patch) }
    try update(from: patched, keyStyle: keyStyle)
  }

  /// Applies a JSON Merge Patch (RFC 7386) to this object in place, through its mapping
  /// (callable on a `let`); see the mutating `merge(patch:keyStyle:)`.
  public func merge(patch: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    let patched = try ModelPatching.patched(self, keyStyle: keyStyle) { $0.merging(patch: patch) }
    try update(from: patched, keyStyle: keyStyle)
  }
}

/// Patches models through their JSON form.
enum ModelPatching {
  /// `value` written as JSON, changed by `change`, with `null` put where a property the
  /// document had is gone, so that updating from it resets that property as decoding an
  /// absent value would (updating leaves properties whose keys are absent alone).
  static func patched<T: JSONDecodable & JSONEncodable>(
    _ value: T, keyStyle: JSON.KeyStyle?, _ change: (JSON) throws -> JSON
  ) throws -> JSON {
    try KeyStyleContext.with(keyStyle) {
      let before = try value.json
      var after = try change(before)
      guard case .object = after else { return after }  // updating refuses it, naming the model
      let model: any JSONDecodable.Type = T.self is AnyClass ? type(of: value) : T.self
      for index in try readIndices(model) where !index.isEmpty {
        if !before[index].isMissing, after[index].isMissing { after[index] = .null }
      }
      return after
    }
  }

  /// A patched copy: a struct updated from the patched document, a class decoded anew.
  static func copy<T: JSONDecodable & JSONEncodable>(
    _ value: T, keyStyle: JSON.KeyStyle?, _ change: (JSON) throws -> JSON
  ) throws -> T {
    let patched = try self.patched(value, keyStyle: keyStyle, change)
    if T.self is AnyClass {
      let model: any JSONDecodable.Type = type(of: value)
      func decode<D: JSONDecodable>(_: D.Type) throws -> T {
        let decoded = try KeyStyleContext.with(keyStyle) { try D(decode: patched) }
        guard let object = decoded as? T else { throw JSON.Error.notUpdatable(D.self) }
        return object
      }
      return try decode(model)
    }
    var copy = value
    try copy.update(from: patched, keyStyle: keyStyle)
    return copy
  }

  /// Where the model's plan reads each property, in the current key style.
  private static func readIndices<D: JSONDecodable>(_: D.Type) throws -> [JSON.Index] {
    guard let state = CodecCache.decoder(for: D.self).model else {
      throw JSON.Error.notUpdatable(D.self)
    }
    return try state.resolvedPlan(KeyStyleContext.override).fields.map(\.index)
  }
}
