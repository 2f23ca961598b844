import Foundation

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
  /// Set for the common scalar types, which the byte path reads inline.
  let leaf: LeafKind?
  let alternativeIndex: JSON.Index?
  let transform: (any Transform)?
  /// Initializes the property with its `.defaultValue` or `.nonNil` value.
  let fallback: ((UnsafeMutableRawPointer) -> Void)?
  /// The property is `Optional`.
  let isOptional: Bool
  /// Fast path eligibility: a leaf with no fallback.
  let inlineLeaf: LeafKind?

  init(
    name: String, offset: Int, codec: DecodeCodec, index: JSON.Index, key: [UInt8]?,
    leaf: LeafKind?, alternativeIndex: JSON.Index?, transform: (any Transform)?,
    fallback: ((UnsafeMutableRawPointer) -> Void)?
  ) {
    self.name = name
    self.offset = offset
    self.codec = codec
    self.index = index
    self.key = key
    self.leaf = leaf
    self.alternativeIndex = alternativeIndex
    self.transform = transform
    self.fallback = fallback
    isOptional = codec.isOptional
    inlineLeaf = fallback == nil && transform == nil ? leaf : nil
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
}

/// A memberwise struct's `.ignore`d property: it still needs a value, `nil` or its fallback.
struct IgnoredField {
  let offset: Int
  let codec: DecodeCodec
  let initialize: (UnsafeMutableRawPointer) -> Void
}

/// Which properties of a memberwise struct are initialized so far.
struct FieldSet {
  private var bits: UInt64 = 0
  private var more: [Bool] = []

  init(count: Int) {
    if count > 64 { more = Array(repeating: false, count: count - 64) }
  }

  @inline(__always)
  func contains(_ index: Int) -> Bool {
    index < 64 ? bits & (1 << UInt64(index)) != 0 : more[index - 64]
  }

  @inline(__always)
  mutating func insert(_ index: Int) {
    if index < 64 { bits |= 1 << UInt64(index) } else { more[index - 64] = true }
  }
}

/// A model's decode plan, built once per type (``ModelDecoding``) and then only read.
///
/// Memory invariants, for the unsafe writes below:
/// - `offset`s come from the runtime's field enumeration and `codec`s from each field's
///   declared type, so a field's memory is exactly a value of the codec's type.
/// - `memberwise`: the destination starts uninitialized; `FieldSet` records which fields
///   hold values, and on failure exactly those are destroyed.
/// - `defaultStruct`/`object`: the instance is complete from `init()` on; a field is replaced
///   by decoding into a temporary first, then destroying the old value and moving the new one
///   in, so a failure never leaves a hole. On failure the whole instance is destroyed.
final class DecodePlan: @unchecked Sendable {  // immutable after creation
  let modelName: String
  let kind: InstanceKind
  let fields: [DecodeField]
  /// Memberwise fields that are `.ignore`d: initialized with `nil` or their fallback.
  let ignoredFields: [IgnoredField]
  /// Destroys a whole instance at the destination.
  let destroyModel: (UnsafeMutableRawPointer) -> Void
  /// Every field reads one key: the byte path can match keys as they stream past. Otherwise
  /// (paths, flattening, alternatives) the object is parsed to `JSON` first.
  let streams: Bool
  /// `fields`, in memory the plan owns, so the byte loop borrows each field in place instead
  /// of copying it (a copy retains every reference it holds).
  private let table: UnsafeMutableBufferPointer<DecodeField>
  /// Each field's key bytes (`keyStart[i]`, `keyCount[i]`), in storage the plan owns; a
  /// field with no single key has count -1.
  private let keyStart: UnsafeMutablePointer<UInt8>
  private let keyOffsets: [Int]
  private let keyCounts: [Int]

  init(
    modelName: String, kind: InstanceKind, fields: [DecodeField],
    ignoredFields: [IgnoredField],
    destroyModel: @escaping (UnsafeMutableRawPointer) -> Void
  ) {
    self.modelName = modelName
    self.kind = kind
    self.fields = fields
    self.ignoredFields = ignoredFields
    self.destroyModel = destroyModel
    let keys = fields.compactMap(\.key)
    streams =
      keys.count == fields.count && Set(keys).count == keys.count
      && fields.allSatisfy { $0.alternativeIndex == nil }
    table = .allocate(capacity: fields.count)
    _ = table.initialize(from: fields)
    let allKeys = keys.flatMap { $0 }
    keyStart = .allocate(capacity: max(allKeys.count, 1))
    keyStart.initialize(from: allKeys, count: allKeys.count)
    var offsets: [Int] = []
    var counts: [Int] = []
    var offset = 0
    for field in fields {
      offsets.append(offset)
      counts.append(field.key?.count ?? -1)
      offset += field.key?.count ?? 0
    }
    keyOffsets = offsets
    keyCounts = counts
  }

  deinit {
    table.deinitialize().deallocate()
    keyStart.deallocate()
  }

  var isMemberwise: Bool {
    if case .memberwise = kind { return true }
    return false
  }

  // MARK: Instances

  /// Starts an instance at `destination` and returns the address fields are offset from.
  private func begin(_ destination: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    switch kind {
    case .memberwise:
      for ignored in ignoredFields { ignored.initialize(destination + ignored.offset) }
      return destination
    case .defaultStruct(let make):
      make(destination)
      return destination
    case .object(let make):
      make(destination)
      // The destination holds the object reference; fields live inside the object.
      return destination.load(as: UnsafeMutableRawPointer.self)
    }
  }

  /// Undoes `begin` and what fields were written, after a failure.
  private func abandon(_ destination: UnsafeMutableRawPointer, _ seen: FieldSet) {
    guard isMemberwise else {
      destroyModel(destination)
      return
    }
    for ignored in ignoredFields { ignored.codec.destroy(destination + ignored.offset) }
    for (position, field) in fields.enumerated() where seen.contains(position) {
      field.codec.destroy(destination + field.offset)
    }
  }

  /// Writes a field's new value, produced by `produce` into uninitialized memory.
  @inline(__always)
  private func write(
    _ position: Int, _ base: UnsafeMutableRawPointer, _ seen: inout FieldSet,
    _ produce: (UnsafeMutableRawPointer) throws -> Void
  ) throws {
    let field = fields[position]
    let target = base + field.offset
    if isMemberwise && !seen.contains(position) {
      try produce(target)
      seen.insert(position)
      return
    }
    let temporary = UnsafeMutableRawPointer.allocate(
      byteCount: max(field.codec.size, 1), alignment: field.codec.alignment)
    defer { temporary.deallocate() }
    try produce(temporary)
    field.codec.destroy(target)
    // A bitwise move: the temporary is deallocated without being destroyed.
    target.copyMemory(from: temporary, byteCount: field.codec.size)
  }

  // MARK: Absent values

  /// What the byte path passes for a key the object did not have.
  private static let absent = JSON.missing(JSON.Error(.missingValue, "absent"))

  /// The key is absent (`found` is `.missing`) or `null`: `nil`, the fallback, the declared
  /// default, or an error.
  private func resolveAbsent(
    _ position: Int, _ base: UnsafeMutableRawPointer, _ seen: inout FieldSet, found: JSON
  ) throws {
    let field = fields[position]
    if let fallback = field.fallback {
      return try write(position, base, &seen) { fallback($0) }
    }
    // A DefaultInitable model keeps its declared default for an absent key; an explicit
    // null makes an optional nil.
    let keepsDefault = !isMemberwise && (found.isMissing || !field.isOptional)
    if keepsDefault { return }
    if let storeNil = field.codec.storeNil {
      return try write(position, base, &seen) { storeNil($0) }
    }
    guard found.isMissing else {
      throw JSON.Error(
        .missingValue, "expected \(field.codec.typeName) for \(modelName).\(field.name), found null"
      ).prefixed(field.index)
    }
    if case .missing(let error) = found, error.kind == .typeMismatch {
      throw error  // a path ran through something that is not an object or array
    }
    throw JSON.Error(
      .missingValue,
      "missing key \(JSON.string(field.index.singleKey ?? field.index.description)) for "
        + "\(modelName).\(field.name) (\(field.codec.typeName))"
    ).prefixed(field.index)
  }

  // MARK: From JSON

  /// Reads the model from a `JSON` object into `destination`.
  func readJSON(_ json: JSON, _ destination: UnsafeMutableRawPointer) throws {
    guard case .object = json else { throw JSON.Error.mismatch(expected: modelName, found: json) }
    var seen = FieldSet(count: fields.count)
    let base = begin(destination)
    do {
      for position in fields.indices {
        let field = fields[position]
        var value = field.index.isEmpty ? json : json[field.index]
        if value.isNullOrMissing, let alternative = field.alternativeIndex {
          let other = json[alternative]
          if !other.isMissing { value = other }
        }
        try decodeField(position, from: value, base, &seen)
      }
    } catch {
      abandon(destination, seen)
      throw error
    }
  }

  /// Fills one field from the JSON found at its index (`.missing` when absent).
  private func decodeField(
    _ position: Int, from value: JSON, _ base: UnsafeMutableRawPointer, _ seen: inout FieldSet
  ) throws {
    let field = fields[position]
    if value.isMissing && !field.index.isEmpty {
      return try resolveAbsent(position, base, &seen, found: value)
    }
    if case .null = value, !field.isOptional, field.transform == nil {
      return try resolveAbsent(position, base, &seen, found: value)
    }
    do {
      if let transform = field.transform, let converted = try transform.decodeValue(from: value) {
        try write(position, base, &seen) { target in
          guard field.codec.store(converted, target) else {
            throw JSON.Error(
              .invalidModel,
              "the transform of \(modelName).\(field.name) returned \(typeName(type(of: converted))), the property is \(field.codec.typeName)"
            )
          }
        }
        return
      }
      if case .null = value, !field.isOptional {
        throw JSON.Error.mismatch(expected: field.codec.typeName, found: value)
      }
      try write(position, base, &seen) { try field.codec.readJSON(value, $0) }
    } catch {
      let error = JSON.Error.wrapping(error)
      guard let fallback = field.fallback, error.isRecoverable else {
        throw field.index.isEmpty ? error : error.prefixed(field.index)
      }
      try write(position, base, &seen) { fallback($0) }
    }
  }

  // MARK: From bytes

  /// Reads the model from the bytes at the reader's cursor into `destination`.
  func readBytes(_ reader: inout JSONReader, _ destination: UnsafeMutableRawPointer) throws {
    guard streams else { return try readJSON(reader.parseValue(), destination) }
    let hasMembers = try reader.openContainer(UInt8(ascii: "{"), expected: modelName)
    defer { reader.leaveContainer() }
    var seen = FieldSet(count: fields.count)
    let base = begin(destination)
    do {
      var found = FieldSet(count: fields.count)
      if hasMembers {
        var hint = 0
        repeat {
          reader.skipWhitespace()
          let span = try reader.scanKeyString()
          try reader.expect(UInt8(ascii: ":"), "':' after object key")
          if let position = try match(span, &reader, hint: hint) {
            hint = position + 1
            found.insert(position)
            try readField(position, &reader, base, &seen)
          } else {
            try reader.validateUTF8(span)
            try reader.skipValue()
          }
        } while try reader.nextMember()
      }
      for position in fields.indices where !found.contains(position) {
        try resolveAbsent(position, base, &seen, found: Self.absent)
      }
    } catch {
      abandon(destination, seen)
      throw error
    }
  }

  /// The field whose key is `span`, trying the one after the last match first: keys
  /// usually arrive in declaration order.
  @inline(__always)
  private func match(_ span: StringSpan, _ reader: inout JSONReader, hint: Int) throws -> Int? {
    if span.hasEscapes {
      try reader.unescape(span)
      return reader.scratch.withUnsafeBufferPointer { position(of: $0, hint: hint) }
    }
    return position(of: span.buffer, hint: hint)
  }

  @inline(__always)
  private func position(of bytes: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
    if hint < table.count, keyEquals(hint, bytes) { return hint }
    for position in 0..<table.count where position != hint && keyEquals(position, bytes) {
      return position
    }
    return nil
  }

  @inline(__always)
  private func keyEquals(_ position: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard keyCounts[position] == bytes.count else { return false }
    guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
    return memcmp(keyStart + keyOffsets[position], base, bytes.count) == 0
  }

  /// Reads one present field's value from the bytes.
  @inline(__always)
  private func readField(
    _ position: Int, _ reader: inout JSONReader, _ base: UnsafeMutableRawPointer,
    _ seen: inout FieldSet
  ) throws {
    let target = base + table[position].offset
    if let leaf = table[position].inlineLeaf {
      // Fast path: the common scalars, read inline.
      if !leaf.isOptional, try reader.consumeNull() {
        return try resolveAbsent(position, base, &seen, found: .null)
      }
      let initialize = isMemberwise && !seen.contains(position)
      do {
        try reader.readLeaf(leaf, into: target, initialize: initialize)
      } catch {
        throw JSON.Error.wrapping(error).prefixed(table[position].index)
      }
      seen.insert(position)
      return
    }
    if table[position].transform != nil {
      return try decodeField(position, from: reader.parseValue(), base, &seen)
    }
    if !table[position].isOptional, try reader.consumeNull() {
      return try resolveAbsent(position, base, &seen, found: .null)
    }
    let start = reader.cursor
    let depth = reader.depth
    do {
      try write(position, base, &seen) { try table[position].codec.readBytes(&reader, $0) }
    } catch {
      let error = JSON.Error.wrapping(error)
      guard let fallback = table[position].fallback, error.isRecoverable else {
        throw error.prefixed(table[position].index)
      }
      // Unusable value: step over it (still checking it is well-formed) and use the fallback.
      reader.cursor = start
      reader.depth = depth
      try reader.skipValue()
      try write(position, base, &seen) { fallback($0) }
    }
  }
}

extension JSON.Error {
  /// Whether a fallback may stand in: anything but malformed text.
  var isRecoverable: Bool {
    switch kind {
    case .malformed, .tooDeep, .invalidModel: false
    default: true
    }
  }
}
