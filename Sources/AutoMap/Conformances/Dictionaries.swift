// Dictionaries: JSON objects keyed by any `JSONKeyRepresentable` type. `[String: Value]` reads
// and writes member names as they are (its own codec, the fast path); other keys convert each
// member name to and from its text. Errors carry the member's name in their path.

extension Dictionary: JSONDecodable, DefaultInitable, DecodeCodecProvider
where Key: JSONKeyRepresentable, Value: JSONDecodable {
  /// Reads a JSON object; a repeated key keeps its last value. A member name that is not a
  /// key, or a value that does not map, is an error whose path ends in that name.
  ///
  /// ```swift
  /// let limits = try [String: Int](jsonString: #"{"daily": 10, "weekly": 50}"#)
  /// let shelves = try [Int: String](jsonString: #"{"1": "tea", "12": "coffee"}"#)
  /// ```
  public init(decode json: JSON) throws {
    self = try Self.decodeMembers(json, lossy: false)
  }

  /// The members of a JSON object; when `lossy`, members that fail to map (by name or value)
  /// are left out (malformed models still throw). The JSON-path twin of `readObject`.
  static func decodeMembers(_ json: JSON, lossy: Bool) throws -> [Key: Value] {
    guard case .object(let object) = json else {
      throw JSON.Error.mismatch(expected: typeName(Self.self), found: json)
    }
    return try Nesting.level(encoding: false) { try decodeMembers(object, lossy: lossy) }
  }

  private static func decodeMembers(_ object: JSON.Object, lossy: Bool) throws -> [Key: Value] {
    if Reporting.mayBeActive, Reporting.isActive {
      return try decodeReporting(object, lossy: lossy)
    }
    var result = [Key: Value](minimumCapacity: object.count)
    for (name, member) in object {
      do {
        result[try Key(jsonKey: name)] = try Value(decode: member)
      } catch {
        let wrapped = JSON.Error.wrapping(error)
        if lossy {
          guard wrapped.isRecoverable else { throw error }
          continue
        }
        throw wrapped.prefixed(key: name)
      }
    }
    return result
  }

  /// ``decodeMembers(_:lossy:)`` for a call that asks for a report (see ``Reporting``): each
  /// member is read at its place in the path while substitutions are recorded, a lossy
  /// member left out is recorded, and when the call collects every problem, a member that
  /// fails does not stop the others.
  private static func decodeReporting(_ object: JSON.Object, lossy: Bool) throws -> [Key: Value] {
    var result = [Key: Value](minimumCapacity: object.count)
    try Problems.each(object, at: { .key($0.0) }, lossy: lossy) {
      result[try Key(jsonKey: $0.0)] = try Value(decode: $0.1)
    }
    return result
  }

  static func makeDecodeCodec() -> DecodeCodec {
    let value = CodecCache.decoder(for: Value.self)
    if Key.self == String.self { return [String: Value].stringKeyedDecodeCodec(value) }
    return DecodeCodec(
      [Key: Value].self,
      readBytes: { reader, destination in
        RawValue.initialize(destination, to: try readObject(&reader, value))
      },
      readJSON: { json, destination in
        RawValue.initialize(destination, to: try [Key: Value](decode: json))
      },
      lossyReadBytes: { reader, destination in
        RawValue.initialize(destination, to: try readObject(&reader, value, lossy: true))
      },
      lossyReadJSON: { json, destination in
        RawValue.initialize(destination, to: try decodeMembers(json, lossy: true))
      })
  }

  /// Reads `{ … }` for keys other than `String`: each member name converted to a key. Two
  /// names for one key (`"x"` and `"y"` both falling back to `.unknown`) go to the reference
  /// (through `JSON`), which decides which one wins in the same way on every path.
  private static func readObject(
    _ reader: inout JSONReader, _ codec: DecodeCodec, lossy: Bool = false
  ) throws -> [Key: Value] {
    let hasMembers = try reader.openContainer(
      UInt8(ascii: "{"), expected: typeName([Key: Value].self))
    defer { reader.leaveContainer() }
    var result: [Key: Value] = [:]
    guard hasMembers else { return result }
    try RawValue.withTemporary(Value.self) { slot in
      repeat {
        reader.skipWhitespace()
        let name = try reader.string(from: reader.scanKeyString())
        try reader.expect(UInt8(ascii: ":"), "':' after object key")
        let key: Key
        do {
          key = try Key(jsonKey: name)
        } catch {
          let wrapped = JSON.Error.wrapping(error)
          guard lossy, wrapped.isRecoverable else { throw wrapped.prefixed(key: name) }
          try reader.skipValue()
          continue
        }
        if result.index(forKey: key) != nil { throw DecodePlan.repeatedKey }
        try readMember(key, named: name, into: &result, codec, slot, &reader, lossy: lossy)
      } while try reader.nextMember()
    }
    return result
  }
}

extension Dictionary where Key == String, Value: JSONDecodable {
  /// The codec of `[String: Value]`: member names are the keys, as read.
  fileprivate static func stringKeyedDecodeCodec(_ value: DecodeCodec) -> DecodeCodec {
    DecodeCodec(
      [String: Value].self,
      readBytes: { reader, destination in
        RawValue.initialize(destination, to: try readObject(&reader, value))
      },
      readJSON: { json, destination in
        RawValue.initialize(
          destination, to: try [String: Value](decode: json))
      },
      lossyReadBytes: { reader, destination in
        RawValue.initialize(
          destination, to: try readObject(&reader, value, lossy: true))
      },
      lossyReadJSON: { json, destination in
        RawValue.initialize(
          destination, to: try decodeMembers(json, lossy: true))
      })
  }

  private static func readObject(
    _ reader: inout JSONReader, _ codec: DecodeCodec, lossy: Bool = false
  ) throws -> [String: Value] {
    let hasMembers = try reader.openContainer(
      UInt8(ascii: "{"), expected: typeName([String: Value].self))
    defer { reader.leaveContainer() }
    var result: [String: Value] = [:]
    guard hasMembers else { return result }
    try RawValue.withTemporary(Value.self) { slot in
      repeat {
        reader.skipWhitespace()
        let key = try reader.string(from: reader.scanKeyString())
        try reader.expect(UInt8(ascii: ":"), "':' after object key")
        // The last occurrence counts: an earlier one already read cannot be undone here
        // (a later one may fail to map and be left out, taking the key with it).
        if result.index(forKey: key) != nil { throw DecodePlan.repeatedKey }
        try readMember(key, named: key, into: &result, codec, slot, &reader, lossy: lossy)
      } while try reader.nextMember()
    }
    return result
  }
}

extension Dictionary: JSONEncodable, EncodeCodecProvider
where Key: JSONKeyRepresentable, Value: JSONEncodable {
  /// An object, member names being the keys' text; members in the dictionary's iteration
  /// order (use `.sortedKeys` for a stable order: by the names' bytes, so `"10"` before `"9"`).
  public var json: JSON {
    get throws {
      try Nesting.level(encoding: true) {
        var object = JSON.Object()
        object.reserveCapacity(count)
        // Two keys of a type of one's own may give one name: the last one met wins, as when
        // the bytes written are read back, and the object holds each name once.
        let namesMayRepeat = Key.self != String.self
        for (key, value) in self {
          let name = key.jsonKey
          do {
            if namesMayRepeat {
              object[name] = try value.json
            } else {
              object.append(name, try value.json)
            }
          } catch {
            throw JSON.Error.wrapping(error).prefixed(key: name)
          }
        }
        return .object(object)
      }
    }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    let codec = CodecCache.encoder(for: Value.self)
    if Key.self == String.self { return [String: Value].stringKeyedEncodeCodec(codec) }
    return EncodeCodec(
      [Key: Value].self,
      writeBytes: { value, writer in
        let dictionary = RawValue.load(value, as: [Key: Value].self)
        var members = dictionary.map { (name: $0.key.jsonKey, value: $0.value) }
        if writer.sorted { members.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } }
        try writer.beginObject()
        for member in members { try writeMember(member.name, member.value, codec, &writer) }
        writer.endObject()
      },
      writeJSON: { value in try RawValue.load(value, as: [Key: Value].self).json },
      isEmpty: { RawValue.load($0, as: [Key: Value].self).isEmpty })
  }

  /// Writes one member; `.omitNulls` leaves it out when its value encodes to null.
  @inline(__always)
  fileprivate static func writeMember(
    _ name: String, _ member: Value, _ codec: EncodeCodec, _ writer: inout JSONWriter
  ) throws {
    let mark = writer.mark
    writer.writeKey(name)
    let valueStart = writer.bytes.count
    do {
      try withUnsafePointer(to: member) { try codec.writeBytes($0, &writer) }
    } catch {
      throw JSON.Error.wrapping(error).prefixed(key: name)
    }
    // `.omitNulls` leaves out members that encode to null, whatever their type.
    if writer.omitNulls, writer.wroteNull(since: valueStart) { writer.rollBack(to: mark) }
  }
}

extension Dictionary where Key == String, Value: JSONEncodable {
  /// The codec of `[String: Value]`: member names are the keys, as they are.
  fileprivate static func stringKeyedEncodeCodec(_ codec: EncodeCodec) -> EncodeCodec {
    EncodeCodec(
      [String: Value].self,
      writeBytes: { value, writer in
        try RawValue.withBorrowed(value, as: [String: Value].self) { dictionary in
          try writer.beginObject()
          if writer.sorted {
            for key in dictionary.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
              guard let member = dictionary[key] else { continue }
              try writeMember(key, member, codec, &writer)
            }
          } else {
            // In storage order, as the keys are listed: no array of keys, no lookups.
            for (key, member) in dictionary { try writeMember(key, member, codec, &writer) }
          }
          writer.endObject()
        }
      },
      writeJSON: { value in try RawValue.load(value, as: [String: Value].self).json },
      isEmpty: { RawValue.load($0, as: [String: Value].self).isEmpty })
  }
}

/// Reads one member's value from the bytes into `result[key]`, through `slot`; when `lossy`, a
/// value that fails to map is stepped over and left out.
@inline(__always)
private func readMember<Key: Hashable, Value>(
  _ key: Key, named name: String, into result: inout [Key: Value], _ codec: DecodeCodec,
  _ slot: UnsafeMutableRawPointer, _ reader: inout JSONReader, lossy: Bool
) throws {
  if lossy {
    let read: Void? = try reader.readOrSkip(
      { try codec.readBytes(&$0, slot) }, confirm: { try codec.readJSON($0, slot) })
    if read != nil { result[key] = RawValue.move(slot, as: Value.self) }
    return
  }
  do {
    try codec.readBytes(&reader, slot)
  } catch {
    throw JSON.Error.wrapping(error).prefixed(key: name)
  }
  result[key] = RawValue.move(slot, as: Value.self)
}
