extension JSONReader {
  /// Consumes one value of any kind without building it, checking it as strictly as the
  /// parser would (grammar, UTF-8, escapes, depth).
  mutating func skipValue() throws {
    guard let byte = peekByte() else { throw syntaxError(expected: "a JSON value") }
    switch byte {
    case UInt8(ascii: "\""):
      let span = try scanString()
      try validateUTF8(span)
    case UInt8(ascii: "{"):
      cursor += 1
      try enterContainer()
      if peekByte() == UInt8(ascii: "}") {
        cursor += 1
      } else {
        while true {
          skipWhitespace()
          let key = try scanKeyString()
          try validateUTF8(key)
          try expect(UInt8(ascii: ":"), "':' after object key")
          try skipValue()
          if try !nextMember() { break }
        }
      }
      leaveContainer()
    case UInt8(ascii: "["):
      cursor += 1
      try enterContainer()
      if peekByte() == UInt8(ascii: "]") {
        cursor += 1
      } else {
        repeat { try skipValue() } while try nextElement()
      }
      leaveContainer()
    default:
      try readScalarLiteralOrNumber()
    }
  }

  /// Reads `true`, `false`, `null` or a number and drops it.
  private mutating func readScalarLiteralOrNumber() throws {
    switch cursor.pointee {
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    default:
      // The grammar is all a skipped number needs checking for; its value only when a
      // number beyond `Double`'s range must be rejected.
      guard rejectsUnrepresentableNumbers else { return try skipNumber() }
      _ = try number(from: scanNumber())
    }
  }

  /// Steps over the number at the cursor, checking its grammar only: what ``scanNumber()``
  /// accepts, without its digits' value. Where the grammar fails, ``scanNumber()`` reads the
  /// number again from its start and throws its error, so both give the same one.
  @inline(__always)
  mutating func skipNumber() throws {
    let numberStart = cursor
    var next = cursor
    @inline(__always) func isDigit(_ at: UnsafePointer<UInt8>) -> Bool {
      at < end && at.pointee &- UInt8(ascii: "0") < 10
    }
    @inline(__always) func digits() -> Bool {
      guard isDigit(next) else { return false }
      next = Self.endOfDigits(from: next + 1, before: end)
      return true
    }
    if next < end, next.pointee == UInt8(ascii: "-") { next += 1 }
    var valid: Bool
    if next < end, next.pointee == UInt8(ascii: "0") {
      next += 1
      valid = !isDigit(next)  // no leading zero
    } else {
      valid = digits()
    }
    if valid, next < end, next.pointee == UInt8(ascii: ".") {
      next += 1
      valid = digits()
    }
    if valid, next < end, next.pointee | 0x20 == UInt8(ascii: "e") {
      next += 1
      if next < end, next.pointee == UInt8(ascii: "+") || next.pointee == UInt8(ascii: "-") {
        next += 1
      }
      valid = digits()
    }
    guard valid else {
      cursor = numberStart
      _ = try scanNumber()  // throws the grammar's error
      return
    }
    cursor = next
  }

  /// Where the run of ASCII digits from `start` ends (`start` when there is none): eight
  /// bytes at a time while eight remain before `end`. (Skipped numbers are mostly digits:
  /// coordinates, prices, identifiers.)
  @inline(__always)
  static func endOfDigits(
    from start: UnsafePointer<UInt8>, before end: UnsafePointer<UInt8>
  ) -> UnsafePointer<UInt8> {
    var next = start
    while end - next >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(next).loadUnaligned(as: UInt64.self))
      // A digit is 0x30-0x39: its high nibble is 3, and still is with 6 added. Adding 6 to
      // the bytes before the first that fails carries into none (they are at most 0x3F).
      let high = word & 0xF0F0_F0F0_F0F0_F0F0
      let bumped = (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
      let stray = (high ^ 0x3030_3030_3030_3030) | (bumped ^ 0x3030_3030_3030_3030)
      guard stray == 0 else { return next + stray.trailingZeroBitCount / 8 }
      next += 8
    }
    while next < end, next.pointee &- UInt8(ascii: "0") < 10 { next += 1 }
    return next
  }

  /// Consumes the literal `word` (`true`, `false`, `null`) at the cursor.
  @inline(__always)
  mutating func expectLiteral(_ word: StaticString) throws {
    let count = word.utf8CodeUnitCount
    guard end - cursor >= count else { throw syntaxError(expected: "a JSON value") }
    for index in 0..<count where cursor[index] != word.utf8Start[index] {
      throw syntaxError(expected: "a JSON value")
    }
    cursor += count
  }

  /// A string in key position: as ``scanString()``, with a message about keys.
  @inline(__always)
  mutating func scanKeyString() throws -> StringSpan {
    guard cursor < end, cursor.pointee == UInt8(ascii: "\"") else {
      throw syntaxError(expected: "a string key")
    }
    return try scanString()
  }

  /// Consumes the key `"<key>"` at the cursor when its text is exactly `count` bytes equal
  /// to `key` between two quotes; otherwise consumes nothing and returns `false`.
  ///
  /// Only for keys with no byte a JSON string must escape (no `"`, `\` or control byte):
  /// then the first quote after the key's bytes ends the string, and the string is the key.
  @inline(__always)
  mutating func consumeKey(_ key: UnsafePointer<UInt8>, count: Int) -> Bool {
    guard end - cursor >= count + 2, cursor.pointee == UInt8(ascii: "\""),
      cursor[count + 1] == UInt8(ascii: "\""), sameBytes(cursor + 1, key, count)
    else { return false }
    cursor += count + 2
    return true
  }

  /// After an object member: consumes `,` and returns `true`, or `}` and returns `false`.
  @inline(__always)
  mutating func nextMember() throws -> Bool {
    skipWhitespace()
    guard cursor < end else { throw syntaxError(expected: "',' or '}' after object member") }
    switch cursor.pointee {
    case UInt8(ascii: ","):
      cursor += 1
      return true
    case UInt8(ascii: "}"):
      cursor += 1
      return false
    default: throw syntaxError(expected: "',' or '}' after object member")
    }
  }

  /// After an array element: consumes `,` and returns `true`, or `]` and returns `false`.
  @inline(__always)
  mutating func nextElement() throws -> Bool {
    skipWhitespace()
    guard cursor < end else { throw syntaxError(expected: "',' or ']' after array element") }
    switch cursor.pointee {
    case UInt8(ascii: ","):
      cursor += 1
      return true
    case UInt8(ascii: "]"):
      cursor += 1
      return false
    default: throw syntaxError(expected: "',' or ']' after array element")
    }
  }
}
