import Foundation

extension JSONReader {
  /// Parses one value at the cursor into a `JSON`.
  mutating func parseValue() throws -> JSON {
    guard let byte = peekByte() else { throw syntaxError(expected: "a JSON value") }
    switch byte {
    case UInt8(ascii: "{"): return .object(try parseObject())
    case UInt8(ascii: "["): return .array(try parseArray())
    default: return try parseScalar(byte)
    }
  }

  /// A value that is no container. Not inlined: its frame, the largest of the parser's, is
  /// then not on the stack once per level of nesting.
  @inline(never)
  private mutating func parseScalar(_ byte: UInt8) throws -> JSON {
    switch byte {
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    default: return .number(try readNumber())
    }
  }

  private mutating func parseArray() throws -> [JSON] {
    cursor += 1
    try enterContainer()
    defer { leaveContainer() }
    if peekByte() == UInt8(ascii: "]") {
      cursor += 1
      return []
    }
    let stack = stacks.values
    let base = stack.count
    repeat {
      stack.push(try parseValue())
    } while try nextElement()
    return stack.popArray(from: base)
  }

  private mutating func parseObject() throws -> JSON.Object {
    cursor += 1
    try enterContainer()
    defer { leaveContainer() }
    if peekByte() == UInt8(ascii: "}") {
      cursor += 1
      return JSON.Object()
    }
    let members = stacks.members
    let keys = stacks.keys
    let base = members.count
    // Repeated keys: a 512-bit filter over the keys seen while the object is small (a key
    // whose bit is clear cannot be a repeat, so the exact comparison runs only on a filter
    // hit); a hash table of positions once it is large, so a large object stays linear.
    var filter = KeyFilter()
    var positions: KeyIndex? = nil
    repeat {
      skipWhitespace()
      let span = try scanKeyString()
      let key = try keys.key(for: span, inputEnd: end) { try string(from: $0) }
      try expect(UInt8(ascii: ":"), "':' after object key")
      let value = try parseValue()
      if members.count - base < KeyFilter.capacity {
        // The filter sees the key as decoded: `"l\u0061bel"` repeats `"label"`.
        let seen =
          span.hasEscapes ? Self.insertDecoded(key, into: &filter) : filter.insert(span.buffer)
        if seen,
          let repeated = (base..<members.count).first(where: { JSON.sameKey(members[$0].key, key) })
        {
          members[repeated].value = consume value  // a repeated key keeps its last value
        } else {
          members.push(JSON.Object.Member(key: key, value: consume value))
        }
        continue
      }
      // The closures read the members through a pointer: capturing the stack would retain
      // it on every call.
      let stored = members.elements
      if positions == nil {
        var index = KeyIndex(capacity: 2 * KeyFilter.capacity)
        for position in base..<members.count {
          _ = index.position(of: stored[position].key, orInsert: position) { stored[$0].key }
        }
        positions = index
      }
      let repeated =
        span.hasEscapes
        ? positions?.position(of: key, orInsert: members.count, keyAt: { stored[$0].key })
        : positions?.position(
          of: key, utf8: span.buffer, orInsert: members.count, keyAt: { stored[$0].key })
      if let repeated {
        members[repeated].value = consume value
      } else {
        members.push(JSON.Object.Member(key: key, value: consume value))
      }
    } while try nextMember()
    return JSON.Object(uniqueMembers: members.popArray(from: base))
  }
}

extension JSONReader {
  /// Adds a key that was written with escapes to the filter, as decoded.
  @inline(never)
  fileprivate static func insertDecoded(_ key: String, into filter: inout KeyFilter) -> Bool {
    var key = key
    return key.withUTF8 { filter.insert($0) }
  }
}

/// The parser's reusable stacks, shared by all nesting levels of one parse.
final class ParseStacks {
  let values = MoveStack<JSON>()
  let members = MoveStack<JSON.Object.Member>()
  let keys = KeyCache()
}

/// A 512-bit Bloom-style filter of object keys (one bit per key), hashed from the length
/// and the first and last eight bytes. A false hit costs a scan of the object's members so
/// far, so the filter is wide enough to keep those rare in objects of up to ``capacity``.
struct KeyFilter {
  /// How many keys it serves before it fills up and a hash table takes over.
  static let capacity = 64

  private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)

  /// Adds the key (its decoded UTF-8) and returns whether it may have been seen before.
  @inline(__always)
  mutating func insert(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = key.count
    var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    if let start = key.baseAddress, count > 0 {
      if count >= 8 {
        let raw = UnsafeRawPointer(start)
        hash ^= raw.loadUnaligned(as: UInt64.self) &* 0xFF51_AFD7_ED55_8CCD
        hash ^=
          raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) &* 0xC4CE_B9FE_1A85_EC53
      } else {
        hash ^= UInt64(start[0]) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= UInt64(start[count - 1]) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= UInt64(start[count / 2]) &* 0x2545_F491_4F6C_DD1D
      }
    }
    hash ^= hash >> 29
    let bit: UInt64 = 1 << (hash & 63)
    let word = Int(truncatingIfNeeded: (hash >> 6) & 7)
    return withUnsafeMutableBytes(of: &words) { words in
      let seen = words.load(fromByteOffset: 8 * word, as: UInt64.self) & bit != 0
      words.storeBytes(
        of: words.load(fromByteOffset: 8 * word, as: UInt64.self) | bit, toByteOffset: 8 * word,
        as: UInt64.self)
      return seen
    }
  }
}

extension JSON {
  /// Parses UTF-8 JSON text (RFC 8259, strictly).
  ///
  /// ```swift
  /// let json = try JSON(jsonData: Data(#"{"users": [{"name": "Ada"}]}"#.utf8))
  /// json["users", 0, "name"]   // "Ada"
  /// ```
  ///
  /// A leading UTF-8 byte order mark is skipped. Anything else that is not one JSON value
  /// surrounded by whitespace is an error, with the byte offset, line and column.
  ///
  /// - Throws: ``JSON/Error`` with kind ``Error/Kind-swift.enum/malformed(offset:line:column:)``,
  ///   ``Error/Kind-swift.enum/tooDeep(limit:)``, or
  ///   ``Error/Kind-swift.enum/numberOutOfRange(offset:line:column:)`` for a number beyond
  ///   `Double`'s range (`1e400`).
  /// - Complexity: O(*n*) in the length of the text.
  ///
  /// Inside a call or scope whose ``Configuration/reading`` allows extensions (JSON5,
  /// comments), the text may use them.
  public init<Bytes: ContiguousBytes>(jsonData data: Bytes) throws {
    self = try data.withUnsafeBytes { bytes in
      try LenientText.configured(bytes) { try JSON(strictBytes: $0) }
    }
  }

  /// Parses JSON text held in a string.
  ///
  /// ```swift
  /// let json = try JSON(jsonString: "[1, 2.5, true, null]")
  /// ```
  public init(jsonString string: String) throws {
    var string = string
    self = try string.withUTF8 { try JSON(jsonData: UnsafeRawBufferPointer($0)) }
  }

  /// Parses strict RFC 8259 text, whatever the configuration: text AutoMap reads for itself
  /// (JSON held in a string, a number's digits) and text already made strict.
  init(strictBytes bytes: UnsafeRawBufferPointer) throws {
    self = try JSONReader.withReader(bytes) { reader in
      reader.rejectsUnrepresentableNumbers = true
      let value = try reader.parseValue()
      try reader.expectEnd()
      return value
    }
  }

  /// ``init(strictBytes:)`` for a string.
  init(strictString string: String) throws {
    var string = string
    self = try string.withUTF8 { try JSON(strictBytes: UnsafeRawBufferPointer($0)) }
  }
}

extension JSON {
  /// Parses text for mapping (`update(fromJSONData:)`): as ``init(jsonData:)``, except that a
  /// number beyond `Double`'s range is kept, to fail only where a property reads it, as
  /// decoding from bytes does.
  init(mappingBytes bytes: UnsafeRawBufferPointer) throws {
    self = try JSONReader.withReader(bytes) { reader in
      let value = try reader.parseValue()
      try reader.expectEnd()
      return value
    }
  }

  /// ``init(mappingBytes:)`` for a document a caller gave: in the extensions the call's
  /// ``Configuration/reading`` allows.
  init(mappingDocument bytes: UnsafeRawBufferPointer) throws {
    self = try LenientText.configured(bytes) { try JSON(mappingBytes: $0) }
  }
}
