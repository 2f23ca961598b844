/// The bytes between a string's quotes, as found by ``JSONReader/scanString()``.
struct StringSpan {
  var start: UnsafePointer<UInt8>
  var count: Int
  /// The string contains backslash escapes (all already checked for syntax and surrogates).
  var hasEscapes: Bool
  /// Every byte is below 0x80, so the bytes are valid UTF-8 as they are.
  var isASCII: Bool

  var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
}

private let ones: UInt64 = 0x0101_0101_0101_0101
private let highBits: UInt64 = 0x8080_8080_8080_8080

/// Whether any byte of `word` is zero (exact as a yes/no test).
@inline(__always)
private func hasZeroByte(_ word: UInt64) -> UInt64 {
  (word &- ones) & ~word & highBits
}

/// Whether any of the eight bytes of `word` ends a run of plain string content: `"`, `\`
/// or a control byte below 0x20. The reader stops there to look; the writer, to escape.
@inline(__always)
func hasStringStop(_ word: UInt64) -> Bool {
  let quote = hasZeroByte(word ^ (ones &* 0x22))
  let backslash = hasZeroByte(word ^ (ones &* 0x5C))
  let control = (word &- ones &* 0x20) & ~word & highBits
  return quote | backslash | control != 0
}

extension JSONReader {
  /// Consumes a string whose opening quote is at the cursor and returns its content span.
  ///
  /// Checks everything but UTF-8 validity of non-ASCII bytes (`isASCII` says whether that is
  /// still to do): control characters, escape syntax, `\u` surrogate pairing, termination.
  /// Scans eight bytes at a time until a quote, backslash or control byte may be near.
  @inline(__always)
  mutating func scanString() throws -> StringSpan {
    guard cursor < end, cursor.pointee == UInt8(ascii: "\"") else {
      throw syntaxError(expected: "a string")
    }
    cursor += 1
    let contentStart = cursor
    var hasEscapes = false
    var highSeen: UInt64 = 0
    while true {
      // Fast path: eight bytes with no quote, backslash or control character.
      while end - cursor >= 8 {
        let word = UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)
        if hasStringStop(word) { break }
        highSeen |= word
        cursor += 8
      }
      guard cursor < end else {
        throw syntaxError("unterminated string", at: contentStart - 1)
      }
      let byte = cursor.pointee
      switch byte {
      case UInt8(ascii: "\""):
        let span = StringSpan(
          start: contentStart, count: cursor - contentStart, hasEscapes: hasEscapes,
          isASCII: highSeen & highBits == 0)
        cursor += 1
        return span
      case UInt8(ascii: "\\"):
        hasEscapes = true
        try scanEscape()
      case 0..<0x20:
        throw syntaxError(
          "control character \(describeByte(at: cursor)) in string; write it as an escape")
      default:
        highSeen |= UInt64(byte)
        cursor += 1
      }
    }
  }

  /// Checks one escape at the cursor (the backslash) and moves past it.
  private mutating func scanEscape() throws {
    let escapeStart = cursor
    cursor += 1
    guard cursor < end else { throw syntaxError("unterminated string", at: escapeStart) }
    switch cursor.pointee {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      cursor += 1
    case UInt8(ascii: "u"):
      cursor += 1
      let unit = try readHex4(escapeStart)
      if (0xD800...0xDBFF).contains(unit) {
        guard end - cursor >= 6, cursor[0] == UInt8(ascii: "\\"), cursor[1] == UInt8(ascii: "u")
        else {
          throw syntaxError(
            "high surrogate \\u\(hex4(unit)) not followed by a low surrogate escape",
            at: escapeStart)
        }
        let secondStart = cursor
        cursor += 2
        let low = try readHex4(secondStart)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw syntaxError(
            "high surrogate \\u\(hex4(unit)) followed by \\u\(hex4(low)), not a low surrogate",
            at: secondStart)
        }
      } else if (0xDC00...0xDFFF).contains(unit) {
        throw syntaxError("lone low surrogate \\u\(hex4(unit))", at: escapeStart)
      }
    default:
      throw syntaxError("invalid escape \\\(describeByte(at: cursor))", at: escapeStart)
    }
  }

  private mutating func readHex4(_ escapeStart: UnsafePointer<UInt8>) throws -> UInt16 {
    guard end - cursor >= 4 else {
      throw syntaxError("\\u escape needs four hex digits", at: escapeStart)
    }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = cursor.pointee
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw syntaxError("\\u escape needs four hex digits, found \(describeByte(at: cursor))")
      }
      value = value << 4 | UInt16(digit)
      cursor += 1
    }
    return value
  }

  private func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  // MARK: Materialising

  /// Consumes a string and returns it.
  @inline(__always)
  mutating func readString() throws -> String {
    let span = try scanString()
    return try string(from: span)
  }

  /// The `String` for a scanned span: validates non-ASCII bytes, resolves escapes.
  mutating func string(from span: StringSpan) throws -> String {
    if !span.hasEscapes {
      if span.isASCII { return String(decoding: span.buffer, as: UTF8.self) }
      if let string = String(validating: span.buffer, as: UTF8.self) { return string }
      throw invalidUTF8Error(in: span.buffer)
    }
    try unescape(span)
    let string: String? = scratch.withUnsafeBufferPointer {
      String(validating: $0, as: UTF8.self)
    }
    if let string { return string }
    throw invalidUTF8Error(in: span.buffer)
  }

  /// Checks that a span's bytes are valid UTF-8 without building a string.
  func validateUTF8(_ span: StringSpan) throws {
    if span.isASCII { return }
    if firstInvalidUTF8Offset(span.buffer) != nil { throw invalidUTF8Error(in: span.buffer) }
  }

  func invalidUTF8Error(in buffer: UnsafeBufferPointer<UInt8>) -> JSON.Error {
    let offset = firstInvalidUTF8Offset(buffer) ?? 0
    guard let base = buffer.baseAddress else { return syntaxError("invalid UTF-8 in string") }
    return syntaxError(
      "invalid UTF-8 in string: \(describeByte(at: base + offset)) cannot start or continue a character here",
      at: base + offset)
  }

  /// Resolves the escapes of `span` into `scratch`.
  mutating func unescape(_ span: StringSpan) throws {
    scratch.removeAll(keepingCapacity: true)
    scratch.reserveCapacity(span.count)
    var position = span.start
    let limit = span.start + span.count
    while position < limit {
      let byte = position.pointee
      guard byte == UInt8(ascii: "\\") else {
        scratch.append(byte)
        position += 1
        continue
      }
      position += 1
      let kind = position.pointee
      position += 1
      switch kind {
      case UInt8(ascii: "b"): scratch.append(0x08)
      case UInt8(ascii: "f"): scratch.append(0x0C)
      case UInt8(ascii: "n"): scratch.append(0x0A)
      case UInt8(ascii: "r"): scratch.append(0x0D)
      case UInt8(ascii: "t"): scratch.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = UInt32(Self.hexValue(position))
        position += 4
        if (0xD800...0xDBFF).contains(scalar) {
          // scanString checked that a low surrogate escape follows.
          let low = UInt32(Self.hexValue(position + 2))
          position += 6
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        appendUTF8(scalar)
      default: scratch.append(kind)  // " \ /
      }
    }
  }

  private static func hexValue(_ position: UnsafePointer<UInt8>) -> UInt16 {
    var value: UInt16 = 0
    for index in 0..<4 {
      let byte = position[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: digit = byte - UInt8(ascii: "A") + 10
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  private mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}

/// The offset of the first byte that makes `bytes` invalid UTF-8 (overlong forms,
/// surrogates, values above U+10FFFF, truncated sequences), or `nil` when valid.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
  var index = 0
  let count = bytes.count
  guard let base = bytes.baseAddress else { return nil }
  while index < count {
    // ASCII runs, eight bytes at a time.
    while count - index >= 8,
      UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & highBits == 0
    {
      index += 8
    }
    guard index < count else { break }
    let lead = bytes[index]
    if lead < 0x80 {
      index += 1
      continue
    }
    let length: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      upper = 0x9F
    case 0xF0:
      length = 4
      lower = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      upper = 0x8F
    default: return index
    }
    guard index + length <= count else { return index }
    let second = bytes[index + 1]
    guard second >= lower && second <= upper else { return index + 1 }
    for next in 2..<length where bytes[index + next] & 0xC0 != 0x80 {
      return index + next
    }
    index += length
  }
  return nil
}
