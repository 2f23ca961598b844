/// The rules of one ``JSONPolymorphic`` hierarchy, with its types erased: which class an
/// object builds, and which discriminator a class writes. Made once per class, when its
/// codec or encode plan is built; models that are not polymorphic never make one.
final class Polymorphism: @unchecked Sendable {  // immutable after creation; metatypes
  let key: String
  private let base: Any.Type
  private let baseName: String
  private let table: [String: Any.Type]
  /// Table values in key order, for error messages.
  private let known: String
  /// The discriminator each class writes: the first value naming it, in key order.
  private let values: [ObjectIdentifier: String]
  private let defaultType: Any.Type?
  private let choose: (JSON) throws -> Any.Type?
  /// Calls `subclass(for:)` for ``SubclassHook``, which learns whether it is the default.
  private let probe: ((JSON) throws -> Void)?
  /// What the probe found: 0 not asked yet, 1 the default, 2 hand-written.
  private let hook = AtomicWord(0)
  let discriminatorKey: DiscriminatorKey

  init(
    key: String, base: Any.Type, table: [String: Any.Type], defaultType: Any.Type?,
    choose: @escaping (JSON) throws -> Any.Type?, probe: ((JSON) throws -> Void)? = nil
  ) {
    self.probe = probe
    discriminatorKey = DiscriminatorKey(key)
    self.key = key
    self.base = base
    baseName = typeName(base)
    self.table = table
    (known, values) = Self.discriminators(table)
    self.defaultType = defaultType
    self.choose = choose
  }

  /// A discriminator table's values in key order, for messages, and the value each type
  /// writes: the first naming it, in key order.
  static func discriminators(_ table: [String: Any.Type]) -> (
    known: String, values: [ObjectIdentifier: String]
  ) {
    let sorted = table.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var values: [ObjectIdentifier: String] = [:]
    for value in sorted {
      guard let type = table[value] else { continue }
      if values[ObjectIdentifier(type)] == nil { values[ObjectIdentifier(type)] = value }
    }
    return (sorted.map { JSON.string($0).description }.joined(separator: ", "), values)
  }

  /// Polymorphism of `T`, when it (or a class it inherits from) adopts ``JSONPolymorphic``.
  static func of<T>(_: T.Type) -> Polymorphism? {
    (T.self as? any JSONPolymorphic.Type)?.makePolymorphism()
  }

  // MARK: Decoding

  /// The class to build from `json` when `T` is requested: `T` itself or a subclass.
  func chooseClass<T>(_ json: JSON, for _: T.Type) throws -> Any.Type {
    guard case .object(let object) = json else { return T.self }  // T reports it as usual
    let requested = typeName(T.self)
    if let chosen = try chosen(json) {
      guard chosen is T.Type else {
        throw JSON.Error(
          .typeMismatch,
          "\(baseName).subclass(for:) chose \(typeName(chosen)), which is not a \(requested)")
      }
      return chosen
    }
    switch object[key] {
    case nil, .null?, .missing?:
      if let fallback = fitting(defaultType, T.self) { return fallback }
      if ObjectIdentifier(T.self) != ObjectIdentifier(base) { return T.self }
      throw JSON.Error(
        .missingValue,
        "missing the discriminator that chooses the \(baseName) subclass: one of \(known)"
      ).prefixed(key: key)
    case .string(let value)?:
      guard let chosen = table[value] else {
        if let fallback = fitting(defaultType, T.self) { return fallback }
        throw JSON.Error.unknownDiscriminator(value, of: baseName, known: known, key: key)
      }
      guard chosen is T.Type else {
        throw JSON.Error(
          .typeMismatch,
          "discriminator \(JSON.string(value).description) chooses \(typeName(chosen)), which is not a \(requested)"
        ).prefixed(key: key)
      }
      return chosen
    case let other?:
      throw JSON.Error.discriminatorNotString(
        other, naming: "\(baseName) subclass", known: known, key: key)
    }
  }

  /// The class ``chooseClass(_:for:)`` would choose for the object at the reader's cursor,
  /// found in its bytes; the cursor stays where it was. `nil` when the choice needs the
  /// object as `JSON` (a hand-written `subclass(for:)`) or is an error: the caller then
  /// reads the object as `JSON`, where the error has its one implementation.
  func chooseClass<T>(at reader: inout JSONReader, for _: T.Type) throws -> Any.Type? {
    guard choosesByDiscriminatorAlone else { return nil }
    switch try discriminatorKey.find(in: &reader) {
    case .absent, .null:
      if let fallback = fitting(defaultType, T.self) { return fallback }
      return ObjectIdentifier(T.self) != ObjectIdentifier(base) ? T.self : nil
    case .string(let value):
      guard let chosen = table[value] else { return fitting(defaultType, T.self) }
      return chosen is T.Type ? chosen : nil
    case .other:
      return nil
    }
  }

  /// Whether `subclass(for:)` is the default, which chooses nothing: the byte path then
  /// finds the discriminator in the bytes (``DiscriminatorKey``) instead of building the
  /// object. Asked once (``SubclassHook``).
  private var choosesByDiscriminatorAlone: Bool {
    switch hook.loadRelaxed() {
    case 1: return true
    case 2: return false
    default:
      guard let probe, !SubclassHook.isProbing else { return false }
      let isDefault = SubclassHook.isDefault(probe)
      hook.storeRelaxed(isDefault ? 1 : 2)
      return isDefault
    }
  }

  /// For `update(from:)`, which keeps the instance's class `T`: a discriminator in `json`
  /// must choose `T` itself, asked as decoding asks: ``JSONPolymorphic/subclass(for:)``,
  /// then the table, then the default subclass. Absent or `null`, it says nothing and the
  /// update goes on, without asking `subclass(for:)` (a partial document need not say what
  /// it would choose).
  func checkUpdate<T>(_ json: JSON, keeping _: T.Type) throws {
    guard case .object(let object) = json else { return }  // the plan reports it
    let kept = typeName(T.self)
    switch object[key] {
    case nil, .null?, .missing?:
      return
    case .string(let value)?:
      // Asked in decoding's order: `subclass(for:)`, then the table, then the default.
      guard let chosen = (try? chosen(json)) ?? table[value] ?? defaultType else {
        throw JSON.Error.unknownDiscriminator(value, of: baseName, known: known, key: key)
      }
      guard ObjectIdentifier(chosen) == ObjectIdentifier(T.self) else {
        throw JSON.Error(
          .typeMismatch,
          "discriminator \(JSON.string(value).description) chooses \(typeName(chosen)), but"
            + " update(from:) cannot change this \(kept) into another class: decode a new value instead"
        ).prefixed(key: key)
      }
    case let other?:
      throw JSON.Error.discriminatorNotString(
        other, naming: "\(baseName) subclass", known: known, key: key)
    }
  }

  private func chosen(_ json: JSON) throws -> Any.Type? {
    // `subclass(for:)` is user code, which may decode this very object as the base class and
    // so be asked again: counted as a level, that loop ends in the depth error, not a stack
    // overflow.
    do {
      return try Nesting.level(encoding: false) { try choose(json) }
    } catch {
      throw JSON.Error.wrapping(error)
    }
  }

  private func fitting<T>(_ type: Any.Type?, _: T.Type) -> Any.Type? {
    guard let type, type is T.Type else { return nil }
    return type
  }

  // MARK: Encoding

  /// The discriminator value `T` writes; `nil` when it writes none (the default class not
  /// in the table).
  func value<T>(for _: T.Type) throws -> String? {
    if let value = values[ObjectIdentifier(T.self)] { return value }
    if let defaultType, ObjectIdentifier(defaultType) == ObjectIdentifier(T.self) { return nil }
    throw JSON.Error(
      .invalidModel,
      "\(typeName(T.self)) cannot be encoded: \(baseName).subclasses has no discriminator for it."
        + " Add it to the table, or make it the defaultSubclass")
  }
}

extension Polymorphism {
  /// The member a polymorphic class writes first: its discriminator, a constant.
  static func discriminatorField(key: String, value: String) -> EncodeField {
    let json = JSON.string(value)
    let codec = EncodeCodec(
      Discriminator.self, writeBytes: { _, writer in writer.writeString(value) },
      writeJSON: { _ in json }, load: { _ in value })
    return EncodeField(
      name: key, offset: 0, codec: codec, index: .key(key),
      quotedKey: JSONWriter.quotedKey(key), key: key, transform: nil, ignoreIfNull: false,
      ignoreIfEmpty: false)
  }

  /// Whether a property written at `index` would write the discriminator key: it is then
  /// left out (`true`). A path through the key (`["type", "x"]`) could not be written at
  /// all next to the discriminator's string, and is refused.
  static func writesDiscriminator(_ index: JSON.Index, key: String, field: String) throws -> Bool {
    // Keys by their bytes: a pattern `.key(key)` would match with `String`'s `==`.
    guard case .key(let first)? = index.steps.first, JSON.sameKey(first, key) else { return false }
    if index.steps.count == 1 { return true }
    throw JSON.Error(
      .invalidModel,
      "\(field) is written at \(index), inside the discriminator \(JSON.string(key).description):"
        + " give it another .index, or mark it .decodeOnly")
  }
}

extension JSON.Error {
  /// A discriminator value the table does not have.
  static func unknownDiscriminator(_ value: String, of name: String, known: String, key: String)
    -> JSON.Error
  {
    JSON.Error(
      .typeMismatch,
      "unknown \(name) discriminator \(JSON.string(value).briefDescription): expected one of \(known)"
    ).prefixed(key: key)
  }

  /// A discriminator that is not a string.
  static func discriminatorNotString(_ found: JSON, naming what: String, known: String, key: String)
    -> JSON.Error
  {
    JSON.Error(
      .typeMismatch,
      "expected a string naming the \(what) (one of \(known)), found \(found.briefDescription)"
    ).prefixed(key: key)
  }
}

/// The type of the discriminator's constant codec: not a leaf type, so the encode loop
/// calls the codec instead of reading memory.
private enum Discriminator {}
