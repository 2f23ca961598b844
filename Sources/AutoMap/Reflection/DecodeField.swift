/// One property in a decode plan: where it lives and how to fill it. A class, so that the
/// loop holding one costs a single reference count, not one per reference it contains.
final class DecodeField {
  let name: String
  let offset: Int
  let codec: DecodeCodec
  /// Where the value is read from; the empty path means the enclosing object (flattening).
  let index: JSON.Index
  /// The key's UTF-8 bytes when the index is one key: what the byte path matches.
  let key: [UInt8]?
  /// The same key as a `String`: what the `JSON` path looks up.
  let keyString: String?
  let alternativeIndex: JSON.Index?
  let transform: (any Transform)?
  /// Initializes the property with its `.defaultValue` or `.nonNil` value.
  let fallback: ((UnsafeMutableRawPointer) -> Void)?
  let options: FieldOptions
  /// For `.lossless`: the scalar kind the JSON is converted to first.
  let lossless: LosslessTarget?
  /// The property is `Optional`.
  let isOptional: Bool
  /// Set when the byte path may read the value inline: a common scalar with no option that
  /// changes how it is read.
  let inlineLeaf: LeafKind?
  /// The value goes through `JSON` on the byte path too (transforms, lossless conversion,
  /// `.emptyAsNil`).
  let readsThroughJSON: Bool

  init(
    name: String, offset: Int, codec: DecodeCodec, index: JSON.Index, options: FieldOptions,
    fallback: ((UnsafeMutableRawPointer) -> Void)?, lossless: LosslessTarget?
  ) {
    self.name = name
    self.offset = offset
    self.codec = codec
    self.index = index
    key = index.singleKey.map { Array($0.utf8) }
    keyString = index.singleKey
    alternativeIndex = options.alternativeIndex
    transform = options.transform
    self.fallback = fallback
    self.options = options
    self.lossless = lossless
    isOptional = codec.isOptional
    readsThroughJSON = transform != nil || lossless != nil || options.emptyAsNil
    let plain = fallback == nil && !readsThroughJSON && !options.lossy
    inlineLeaf = plain ? LeafKind(codec.type) : nil
  }
}

extension DecodeField {
  /// What a fallback stands in with, for substitution records: `.defaultValue("none")`,
  /// `.nonNil`.
  var replacement: String {
    guard options.hasDefaultValue else { return ".nonNil" }
    return ".defaultValue(\(options.defaultValue.map { JSON.describe($0) } ?? "nil"))"
  }
}

/// What the byte loop reads of a field, in plain values: reading one costs no reference
/// counting, where reading the ``DecodeField`` costs a retain and a release per field.
struct DecodeStep {
  let offset: Int
  /// Set when the value is read inline (see ``DecodeField/inlineLeaf``).
  let inlineLeaf: LeafKind?
  /// No fallback, no `.lossy`, not read through `JSON`: the codec reads the bytes as they are.
  let readsDirectly: Bool
  let isOptional: Bool
  /// Kept alive by the plan's `fields`.
  unowned(unsafe) let codec: DecodeCodec
  /// The key's UTF-8 bytes, `keyCount` of them (-1: the field has no single key), in memory
  /// the plan owns.
  let key: UnsafePointer<UInt8>
  let keyCount: Int
  /// The key has no byte a JSON string must escape, so `"` + key + `"` in the text is that
  /// key and nothing else: it can be recognized byte for byte.
  let keyIsVerbatim: Bool
  /// No fallback, and the codec stores `nil` (an `Optional`): what an absent or `null`
  /// value comes to, decided without the ``DecodeField``.
  let absentStoresNil: Bool

  init(_ field: DecodeField, key: UnsafePointer<UInt8>) {
    self.key = key
    keyCount = field.key?.count ?? -1
    keyIsVerbatim = field.key.map { !$0.contains(where: isStringStop) } ?? false
    offset = field.offset
    inlineLeaf = field.inlineLeaf
    readsDirectly = field.fallback == nil && !field.options.lossy && !field.readsThroughJSON
    isOptional = field.isOptional
    codec = field.codec
    absentStoresNil = field.fallback == nil && field.codec.storeNil != nil
  }

  /// Reads the value at the cursor into `target` through the codec.
  ///
  /// With no reference counting: the plan keeps the codec alive, and an atomic retain and
  /// release around each call would cost more than reading a small value.
  @inline(__always)
  func read(_ reader: inout JSONReader, into target: UnsafeMutableRawPointer) throws {
    try Unmanaged.passUnretained(codec)._withUnsafeGuaranteedRef {
      try $0.readBytes(&reader, target)
    }
  }

  /// Stores `nil` at `target` (``absentStoresNil``), with no reference counting.
  @inline(__always)
  func storeNil(_ target: UnsafeMutableRawPointer) {
    Unmanaged.passUnretained(codec)._withUnsafeGuaranteedRef { $0.storeNil?(target) }
  }
}

/// How instances of a model come to be.
enum InstanceKind {
  /// A struct with no `init()`: each property is initialized in place, so every property
  /// must be given a value.
  case memberwise
  /// A `DefaultInitable` struct: `init()` first, then present keys replace properties.
  case defaultStruct(make: (UnsafeMutableRawPointer) -> Void)
  /// A class: `init()` makes the object, the destination holds the reference, and present
  /// keys replace properties inside the object.
  case object(make: (UnsafeMutableRawPointer) -> Void)

  var isMemberwise: Bool {
    if case .memberwise = self { return true }
    return false
  }

  /// For messages: "a DefaultInitable struct", "a class".
  var describe: String {
    switch self {
    case .memberwise: "a struct"
    case .defaultStruct: "a DefaultInitable struct"
    case .object: "a class"
    }
  }
}

/// A memberwise struct's property that is not decoded (`.ignore`, `lazy` storage): it still
/// needs a value, `nil` or its fallback.
struct IgnoredField {
  let offset: Int
  let initialize: (UnsafeMutableRawPointer) -> Void
  /// Destroys the value after a failure; `nil` when it is `nil`, which holds nothing.
  let destroy: ((UnsafeMutableRawPointer) -> Void)?
}

/// Which properties are set so far (a bit per field; an array past 64 fields).
struct FieldSet {
  private var bits: UInt64 = 0
  /// `nil` up to 64 fields: an empty array would still be checked for uniqueness (and
  /// copied, being the shared empty one) before each loop that inserts.
  private var more: [Bool]?

  init(count: Int) {
    if count > 64 { more = Array(repeating: false, count: count - 64) }
  }

  @inline(__always)
  func contains(_ index: Int) -> Bool {
    index < 64 ? bits & (1 << UInt64(index)) != 0 : more?[index - 64] ?? false
  }

  @inline(__always)
  mutating func insert(_ index: Int) {
    if index < 64 { bits |= 1 << UInt64(index) } else { more?[index - 64] = true }
  }
}

/// One decode's progress through a plan.
struct DecodeProgress {
  /// Fields of a memberwise struct that hold a value (the others are uninitialized memory).
  var initialized: FieldSet
  /// The memory starts uninitialized: fields are initialized, not replaced.
  let memberwise: Bool
  /// Updating an existing value: new values are staged and only moved in when every field
  /// has decoded, so a failed update changes nothing.
  var staged: [(position: Int, value: UnsafeMutableRawPointer)]?

  init(fieldCount: Int, memberwise: Bool, staging: Bool = false) {
    initialized = FieldSet(count: fieldCount)
    self.memberwise = memberwise
    staged = staging ? [] : nil
  }
}
