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

  /// Whether the value at `address` is left out by `.ignoreIfNull`, `.ignoreIfEmpty` or the
  /// `.omitNulls` writing option, judged before it is converted.
  @inline(__always)
  func omits(_ address: UnsafeRawPointer, omitNulls: Bool) -> Bool {
    if ignoreIfNull || omitNulls, codec.isNil?(address) == true { return true }
    if ignoreIfEmpty, codec.isEmpty?(address) == true { return true }
    return false
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

  init(modelName: String, isClass: Bool, fields: [EncodeField]) {
    self.modelName = modelName
    self.isClass = isClass
    self.fields = fields
    sortedFields = fields.sorted {
      ($0.key ?? "").utf8.lexicographicallyPrecedes(($1.key ?? "").utf8)
    }
    let keys = fields.compactMap(\.key)
    streams = keys.count == fields.count && Set(keys).count == keys.count
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
    if let transform = field.transform,
      let converted = try transform.encodeValue(field.codec.load(address))
    {
      json = converted
    } else {
      json = try field.codec.writeJSON(address)
    }
    if field.ignoreIfNull || omitNulls, case .null = json { return nil }
    return json
  }

  func writeJSON(_ value: UnsafeRawPointer) throws -> JSON {
    let base = base(value)
    var result: JSON = .object(JSON.Object())
    for field in fields {
      let json: JSON?
      do { json = try fieldJSON(field, base, omitNulls: false) } catch {
        throw JSON.Error.wrapping(error).prefixed(field.index)
      }
      guard let json else { continue }
      if field.index.isEmpty {
        guard case .object(let members) = json else {
          throw JSON.Error(
            .unencodable,
            "\(modelName).\(field.name) is flattened with .index([]) but encodes to \(json.kindName), not an object"
          )
        }
        for (key, member) in members { result[.key(key)] = member }
      } else {
        result[field.index] = json
      }
    }
    return result
  }

  func writeBytes(_ value: UnsafeRawPointer, _ writer: inout JSONWriter) throws {
    guard streams else { return try writer.write(writeJSON(value)) }
    let base = base(value)
    try writer.beginObject()
    for field in writer.sorted ? sortedFields : fields {
      guard let quotedKey = field.quotedKey else { continue }
      let address = base + field.offset
      do {
        if field.transform != nil {
          guard let json = try fieldJSON(field, base, omitNulls: writer.omitNulls) else { continue }
          writer.writeKey(quotedBytes: quotedKey)
          try writer.write(json)
        } else {
          if field.omits(address, omitNulls: writer.omitNulls) { continue }
          guard field.ignoreIfNull || writer.omitNulls else {
            writer.writeKey(quotedBytes: quotedKey)
            try field.codec.writeBytes(address, &writer)
            continue
          }
          // Left out when it encodes to null, whatever its type (`JSON.null`, `Int??`).
          let mark = writer.mark
          writer.writeKey(quotedBytes: quotedKey)
          let valueStart = writer.bytes.count
          try field.codec.writeBytes(address, &writer)
          if writer.wroteNull(since: valueStart) { writer.rollBack(to: mark) }
        }
      } catch {
        throw JSON.Error.wrapping(error).prefixed(field.index)
      }
    }
    writer.endObject()
  }
}
