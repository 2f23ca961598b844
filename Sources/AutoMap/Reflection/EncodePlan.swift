/// One property in an encode plan.
struct EncodeField {
  let name: String
  let offset: Int
  let codec: EncodeCodec
  /// Where the value is written; the empty path merges the value's members into the
  /// enclosing object (flattening).
  let index: JSON.Index
  /// The quoted, escaped key when the index is one key: what the byte path writes.
  let quotedKey: [UInt8]?
  let key: String?
  let transform: (any Transform)?
  let ignoreIfNull: Bool
  let ignoreIfEmpty: Bool

  /// Flattened, a dictionary or `JSON` value is a catch-all: what the model does not map.
  var isCatchAll: Bool {
    codec.type is any DictionaryValueTypeProviding.Type || codec.type == JSON.self
  }

  /// Whether the value at `address` is left out by `.ignoreIfNull`, `.ignoreIfEmpty` or the
  /// `.omitNulls` writing option, judged before it is converted.
  @inline(__always)
  func omits(_ address: UnsafeRawPointer, omitNulls: Bool) -> Bool {
    if ignoreIfNull || omitNulls, codec.isNil?(address) == true { return true }
    if ignoreIfEmpty, codec.isEmpty?(address) == true { return true }
    return false
  }
}

/// What the byte loop reads of one field: plain values only, so stepping through the plan
/// copies no references (an ``EncodeField`` holds several, each a retain and a release).
struct EncodeStep {
  let offset: Int
  /// The quoted, escaped key, in storage the plan owns.
  let key: UnsafeBufferPointer<UInt8>
  /// Set for the common scalars, which the loop writes inline.
  let leaf: LeafKind?
  /// No transform, `.ignoreIfNull` or `.ignoreIfEmpty`: the value is written as it is.
  let isPlain: Bool
  /// The field's position in ``EncodePlan/fields``.
  let field: Int
  /// Kept alive by the plan's `fields`.
  unowned(unsafe) let codec: EncodeCodec

  /// Writes the value at `address` through the codec, with no reference counting: the plan
  /// keeps the codec alive, and an atomic retain and release around each call would cost
  /// more than writing a small value.
  @inline(__always)
  func write(_ address: UnsafeRawPointer, _ writer: inout JSONWriter) throws {
    try Unmanaged.passUnretained(codec)._withUnsafeGuaranteedRef {
      try $0.writeBytes(address, &writer)
    }
  }
}

/// A model's encode plan, built once per type and then only read. Fields are read at their
/// runtime-reported offsets from the value (structs) or the object (classes), each through
/// the codec of its declared type.
final class EncodePlan: @unchecked Sendable {  // immutable after creation
  let modelName: String
  let isClass: Bool
  let fields: [EncodeField]
  /// The same fields in the order of their keys' bytes, for `.sortedKeys`.
  let sortedFields: [EncodeField]
  /// Every field writes one distinct key: written straight to bytes. Otherwise the object
  /// is built as `JSON` first.
  let streams: Bool
  /// When it streams: one step per field, in declaration order and in key order. In memory
  /// the plan owns: looping over an array held by the plan would retain and release it for
  /// every value written.
  private let steps: UnsafeMutableBufferPointer<EncodeStep>
  private let sortedSteps: UnsafeMutableBufferPointer<EncodeStep>
  /// The quoted keys the steps point into.
  private let keyStorage: UnsafeMutableBufferPointer<UInt8>

  /// Set for models written as a whole rather than field by field (enums with payloads,
  /// through their synthesized `Codable`). It counts its own nesting levels (see
  /// ``DecodePlan/whole``).
  let whole: ((UnsafeRawPointer) throws -> JSON)?
  /// The same straight to bytes, for `whole` models that write bytes directly.
  let wholeBytes: ((UnsafeRawPointer, inout JSONWriter) throws -> Void)?
  /// Whether ``wholeBytes`` is set: tested on every value without copying the closure.
  let isWhole: Bool
  /// A polymorphic class's discriminator key: flattened members never overwrite it.
  let reservedKey: String?

  init(
    modelName: String, isClass: Bool, fields: [EncodeField],
    whole: ((UnsafeRawPointer) throws -> JSON)? = nil,
    wholeBytes: ((UnsafeRawPointer, inout JSONWriter) throws -> Void)? = nil,
    reservedKey: String? = nil
  ) {
    self.whole = whole
    self.wholeBytes = wholeBytes
    isWhole = wholeBytes != nil
    self.reservedKey = reservedKey
    self.modelName = modelName
    self.isClass = isClass
    self.fields = fields
    sortedFields = fields.sorted {
      ($0.key ?? "").utf8.lexicographicallyPrecedes(($1.key ?? "").utf8)
    }
    let keys = fields.compactMap(\.key)
    streams = keys.count == fields.count && Set(keys).count == keys.count
    let quoted = fields.map { $0.quotedKey ?? [] }
    keyStorage = .allocate(capacity: quoted.reduce(0) { $0 + $1.count })
    var steps: [EncodeStep] = []
    var start = 0
    for (position, field) in fields.enumerated() {
      let key = quoted[position]
      _ = UnsafeMutableBufferPointer(rebasing: keyStorage[start..<start + key.count])
        .initialize(from: key)
      steps.append(
        EncodeStep(
          offset: field.offset,
          key: UnsafeBufferPointer(rebasing: keyStorage[start..<start + key.count]),
          leaf: LeafKind(field.codec.type),
          isPlain: field.transform == nil && !field.ignoreIfNull && !field.ignoreIfEmpty,
          field: position, codec: field.codec))
      start += key.count
    }
    // By the keys' own bytes, as `sortedFields` and the `JSON` writer order them (the
    // quoted form would put `"a!"` before `"a"`: `!` sorts below the closing quote).
    let sorted = steps.sorted {
      (fields[$0.field].key ?? "").utf8.lexicographicallyPrecedes((fields[$1.field].key ?? "").utf8)
    }
    self.steps = .allocate(capacity: steps.count)
    _ = self.steps.initialize(from: steps)
    sortedSteps = .allocate(capacity: sorted.count)
    _ = sortedSteps.initialize(from: sorted)
  }

  deinit {
    keyStorage.deallocate()
    // Plain values (the codec is unowned): nothing to deinitialize.
    steps.deallocate()
    sortedSteps.deallocate()
  }

  /// This plan with `key: value` written first and any field of its own at `key` left out,
  /// as a registered protocol type writes its instances; `nil` when it does not stream, or a
  /// field writes a path through `key` (the `JSON` path then decides).
  func tagged(key: String, value: String) -> EncodePlan? {
    guard streams, whole == nil else { return nil }
    var tagged = [Polymorphism.discriminatorField(key: key, value: value)]
    for field in fields {
      // A path through the key is refused there: the `JSON` path then decides.
      guard
        let writesKey = try? Polymorphism.writesDiscriminator(
          field.index, key: key, field: field.name)
      else { return nil }
      if !writesKey { tagged.append(field) }
    }
    return EncodePlan(modelName: modelName, isClass: isClass, fields: tagged, reservedKey: key)
  }

  @inline(__always)
  private func base(_ value: UnsafeRawPointer) -> UnsafeRawPointer {
    isClass ? UnsafeRawPointer(RawValue.objectBase(value)) : value
  }

  /// The JSON for one field, or `nil` when it is left out.
  private func fieldJSON(_ field: EncodeField, _ base: UnsafeRawPointer, omitNulls: Bool) throws
    -> JSON?
  {
    let address = base + field.offset
    if field.omits(address, omitNulls: omitNulls) { return nil }
    var json: JSON
    if let transform = field.transform, let converted = try transformed(field, transform, address) {
      try Nesting.checkFits(converted, encoding: true)  // walked by no encoder
      json = converted
    } else {
      json = try field.codec.writeJSON(address)
    }
    if field.ignoreIfNull || omitNulls, case .null = json { return nil }
    return json
  }

  /// What `transform` writes for the field at `address`. An optional's `nil` is `null` when
  /// the transform makes nothing of it (it throws, as a transform to a non-optional type
  /// does): decoding reads that `null` back as `nil`. A transform that takes `nil` decides.
  private func transformed(
    _ field: EncodeField, _ transform: any Transform, _ address: UnsafeRawPointer
  ) throws -> JSON? {
    guard let isNil = field.codec.isNil, isNil(address) else {
      return try transform.encodeValue(field.codec.load(address))
    }
    return try? transform.encodeValue(field.codec.load(address))
  }

  func writeJSON(_ value: UnsafeRawPointer) throws -> JSON {
    let base = base(value)
    var result: JSON = .object(JSON.Object())
    var catchAll: [JSON.Object] = []
    for field in fields {
      let json: JSON?
      // The objects a path writes around the value are levels; a flattened value has none.
      let levels = field.index.steps.count - 1
      do {
        json = try Nesting.placed(levels, encoding: true) {
          try fieldJSON(field, base, omitNulls: false)
        }
        if json != nil { try Nesting.checkRoom(levels, encoding: true) }
      } catch {
        throw JSON.Error.wrapping(error).prefixed(field.index)
      }
      guard let json else { continue }
      if field.index.isEmpty {
        if case .null = json { continue }  // a flattened optional's `nil`: no members
        guard case .object(let members) = json else {
          throw JSON.Error(
            .unencodable,
            "\(modelName).\(field.name) is flattened with .index([]) but encodes to \(json.kindName), not an object"
          )
        }
        if field.isCatchAll {
          catchAll.append(members)
          continue
        }
        for (key, member) in members where !isReserved(key) {
          try put(member, at: .key(key), in: &result, for: field)
        }
      } else {
        try put(json, at: field.index, in: &result, for: field)
      }
    }
    // A flattened dictionary or `JSON` value holds what the model does not map (decoding fills
    // it from the whole object, the model's own keys included): it yields to every property.
    for members in catchAll {
      for (key, member) in members where !isReserved(key) && result[.key(key)].isMissing {
        result[.key(key)] = member
      }
    }
    return result
  }

  /// Writes `json` at `index`, where nothing (or `null`) is yet or, member by member, into an
  /// object already there; a `null` yields to anything there. Anything else would replace what
  /// another property wrote (the same key after key styles and options, a path through a value
  /// that is not an object, a flattened member's key), and one value would be lost without a
  /// word: that throws.
  private func put(
    _ json: JSON, at index: JSON.Index, in result: inout JSON, for field: EncodeField
  ) throws {
    let isNull = if case .null = json { true } else { false }
    for length in 1...max(index.steps.count, 1) {
      let prefix = JSON.Index(steps: Array(index.steps.prefix(length)))
      let here = result[prefix]
      if here.isMissing {
        result[index] = json
        return
      }
      switch here {
      case .null where isNull: return
      case .null where length < index.steps.count:
        result[prefix] = .object(JSON.Object())
        continue
      case .null:
        result[index] = json
        return
      case .object where length < index.steps.count: continue
      case .object:
        if isNull { return }
        guard case .object(let members) = json else { break }
        for (key, member) in members {
          try put(member, at: JSON.Index(steps: index.steps + [.key(key)]), in: &result, for: field)
        }
        return
      default:
        if isNull { return }
      }
      break  // a value that is not an object, in the way
    }
    throw JSON.Error(
      .unencodable,
      "\(modelName).\(field.name) is written where another property of \(modelName) already"
        + " wrote: one of the two values would be lost. Give one another key, or mark it"
        + " .decodeOnly"
    ).prefixed(index)
  }

  /// Whether `key` is the discriminator's, which the model's own members never write: the
  /// same bytes, as keys are compared (a member only canonically equal to it, `Kind` with a
  /// Kelvin sign for `Kind`, is another key, and is written).
  private func isReserved(_ key: String) -> Bool {
    guard let reservedKey else { return false }
    return JSON.sameKey(key, reservedKey)
  }

  func writeBytes(_ value: UnsafeRawPointer, _ writer: inout JSONWriter) throws {
    guard streams else { return try writer.write(writeJSON(value)) }
    let base = base(value)
    try writer.beginObject()
    let plainOnly = !writer.omitNulls
    var current = 0
    do {
      for step in writer.sorted ? sortedSteps : steps {
        current = step.field
        guard step.isPlain && plainOnly else {
          try writeMember(fields[step.field], base, &writer)
          continue
        }
        writer.writeKey(quoted: step.key)
        let address = base + step.offset
        if let leaf = step.leaf {
          try writer.writeLeaf(leaf, at: address)
        } else {
          try step.write(address, &writer)
        }
      }
    } catch {
      throw JSON.Error.wrapping(error).prefixed(fields[current].index)
    }
    writer.endObject()
  }

  /// One member with options that may leave it out or convert it.
  private func writeMember(
    _ field: EncodeField, _ base: UnsafeRawPointer, _ writer: inout JSONWriter
  ) throws {
    guard let quotedKey = field.quotedKey else { return }
    let address = base + field.offset
    if field.transform != nil {
      guard let json = try fieldJSON(field, base, omitNulls: writer.omitNulls) else { return }
      writer.writeKey(quotedBytes: quotedKey)
      try writer.write(json)
      return
    }
    if field.omits(address, omitNulls: writer.omitNulls) { return }
    guard field.ignoreIfNull || writer.omitNulls else {
      writer.writeKey(quotedBytes: quotedKey)
      try field.codec.writeBytes(address, &writer)
      return
    }
    // Left out when it encodes to null, whatever its type (`JSON.null`, `Int??`).
    let mark = writer.mark
    writer.writeKey(quotedBytes: quotedKey)
    let valueStart = writer.bytes.count
    try field.codec.writeBytes(address, &writer)
    if writer.wroteNull(since: valueStart) { writer.rollBack(to: mark) }
  }
}
