import CAutoMapShims

extension JSON {
  /// How JSON text is written.
  ///
  /// ```swift
  /// try json.jsonString(options: [.prettyPrinted, .sortedKeys])
  /// ```
  public struct WritingOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int
    /// Options from their bits; use the named options instead.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Line breaks and two-space indentation; `"key": value` with one space.
    public static let prettyPrinted = WritingOptions(rawValue: 1 << 0)
    /// Object members in ascending order of their keys' UTF-8 bytes (the default keeps
    /// document or declaration order).
    public static let sortedKeys = WritingOptions(rawValue: 1 << 1)
    /// Leaves out every object member whose value is `null` (`nil` properties, `nil`
    /// dictionary values, `null` in `JSON` objects). Array elements are kept.
    public static let omitNulls = WritingOptions(rawValue: 1 << 2)
  }
}

/// Appends JSON text to a byte buffer: the one writer behind `JSON` and model encoding.
///
/// Containers are written with ``beginObject()``/``writeKey(_:)``/``endObject()`` (and the
/// array counterparts), which place commas, line breaks and indentation; values are written
/// with the `write…` methods. Strings are escaped as RFC 8259 requires and otherwise copied
/// in runs: control characters, `"` and `\` are escaped, everything else (non-ASCII too) is
/// written as UTF-8.
struct JSONWriter {
  var bytes: WrittenBytes
  let pretty: Bool
  let sorted: Bool
  let omitNulls: Bool
  /// The key style the call set, if any; models use their own otherwise.
  let keyStyle: JSON.KeyStyle?
  private var level = 0
  /// Whether the innermost open container has no element yet.
  private var isFirst = true
  /// Byte `Encoder` roots, with their sessions, that finished and that no encoder outlived,
  /// kept for the next `Codable` values this writer meets (``ByteEncoding``), linked through
  /// `nextSpare`. A writer that was copied leaves them alone (they are taken only when no copy
  /// holds them), so copies never share one: that is what makes the unsafe opt-out sound.
  nonisolated(unsafe) var spareRoot: ByteEncoder?
  /// The probe of the last untagged enum value this writer wrote (``UntaggedProbe``), kept as
  /// the roots are.
  nonisolated(unsafe) var spareProbe: UntaggedProbe?

  init(options: JSON.WritingOptions, capacity: Int = 4096) {
    pretty = options.contains(.prettyPrinted)
    sorted = options.contains(.sortedKeys)
    omitNulls = options.contains(.omitNulls)
    keyStyle = KeyStyleContext.override
    bytes = WrittenBytes(capacity: capacity)
  }

  // MARK: Containers

  @inline(__always)
  mutating func beginObject() throws {
    try open(UInt8(ascii: "{"))
  }

  @inline(__always)
  mutating func endObject() {
    close(UInt8(ascii: "}"))
  }

  @inline(__always)
  mutating func beginArray() throws {
    try open(UInt8(ascii: "["))
  }

  @inline(__always)
  mutating func endArray() {
    close(UInt8(ascii: "]"))
  }

  /// Before each array element.
  @inline(__always)
  mutating func beginElement() {
    separate()
  }

  /// Writes a key and its colon; `key` is escaped.
  @inline(__always)
  mutating func writeKey(_ key: String) {
    var key = key
    key.withUTF8 { writeKey(utf8: $0) }
  }

  /// Writes a key (UTF-8, escaped here) and its colon. Outside pretty printing, a short key
  /// with nothing to escape goes in one append with its comma and colon: for coding keys, four
  /// appends cost more than the key.
  mutating func writeKey(utf8: UnsafeBufferPointer<UInt8>) {
    if !pretty, appendShortQuoted(utf8, comma: !isFirst, colon: true) {
      isFirst = false
      return
    }
    separate()
    writeQuoted(utf8)
    colon()
  }

  /// The longest text ``appendShortQuoted(_:comma:colon:)`` writes.
  private static let shortText = 27

  /// Appends `utf8` quoted, after a comma when `comma`, before a colon when `colon`, in one
  /// append, when it is at most ``shortText`` bytes with nothing to escape; `false`, having
  /// written nothing, otherwise.
  @inline(__always)
  private mutating func appendShortQuoted(
    _ utf8: UnsafeBufferPointer<UInt8>, comma: Bool, colon: Bool
  ) -> Bool {
    let count = utf8.count
    guard count <= JSONWriter.shortText, let text = utf8.baseAddress else { return false }
    var clean = true
    bytes.write(atMost: JSONWriter.shortText + 4) { out in
      let first = comma ? 1 : 0
      out[0] = UInt8(ascii: ",")
      out[first] = UInt8(ascii: "\"")
      var index = 0
      while index < count {
        let byte = text[index]
        if isStringStop(byte) {
          clean = false
          return 0  // nothing written: what it stored past the text is not part of it
        }
        out[first + 1 + index] = byte
        index += 1
      }
      out[first + count + 1] = UInt8(ascii: "\"")
      out[first + count + 2] = UInt8(ascii: ":")
      return first + count + (colon ? 3 : 2)
    }
    return clean
  }

  /// Writes a key given as ready-made bytes: the quoted, escaped key (`"name"`).
  @inline(__always)
  mutating func writeKey(quotedBytes: [UInt8]) {
    quotedBytes.withUnsafeBufferPointer { writeKey(quoted: $0) }
  }

  /// ``writeKey(quotedBytes:)`` for bytes a plan keeps. Outside pretty printing, a key of at
  /// most ``shortText`` bytes goes in one write with its comma and colon.
  @inline(__always)
  mutating func writeKey(quoted: UnsafeBufferPointer<UInt8>) {
    let count = quoted.count
    if !pretty, count <= JSONWriter.shortText, let key = quoted.baseAddress {
      let comma = isFirst ? 0 : 1
      isFirst = false
      bytes.write(atMost: JSONWriter.shortText + 2) { out in
        out[0] = UInt8(ascii: ",")
        UnsafeMutableRawPointer(out + comma).copyMemory(from: key, byteCount: count)
        out[comma + count] = UInt8(ascii: ":")
        return comma + count + 1
      }
      return
    }
    separate()
    bytes.append(contentsOf: quoted)
    colon()
  }

  @inline(__always)
  private mutating func open(_ bracket: UInt8) throws {
    level += 1
    if level > JSON.maximumDepth || automap_stack_is_low() { throw Self.tooDeep(level) }
    bytes.append(bracket)
    isFirst = true
  }

  /// The error of opening level `level`: past the bound, or past what the stack holds.
  @inline(never)
  private static func tooDeep(_ level: Int) -> JSON.Error {
    guard level > JSON.maximumDepth else { return Nesting.stackExhausted(encoding: true) }
    return JSON.Error(.unencodable, "nesting deeper than \(JSON.maximumDepth) arrays and objects")
  }

  private mutating func close(_ bracket: UInt8) {
    level -= 1
    if pretty && !isFirst { newline() }
    bytes.append(bracket)
    isFirst = false
  }

  @inline(__always)
  private mutating func separate() {
    if !isFirst { bytes.append(UInt8(ascii: ",")) }
    isFirst = false
    if pretty { newline() }
  }

  @inline(__always)
  private mutating func colon() {
    bytes.append(UInt8(ascii: ":"))
    if pretty { bytes.append(UInt8(ascii: " ")) }
  }

  private mutating func newline() {
    bytes.append(0x0A)
    for _ in 0..<level {
      bytes.append(0x20)
      bytes.append(0x20)
    }
  }

  // MARK: Taking back a member

  /// Where the writer is, to take back what follows with ``rollBack(to:)``.
  struct Mark {
    fileprivate let count: Int
    fileprivate let isFirst: Bool
    fileprivate let level: Int
  }

  var mark: Mark { Mark(count: bytes.count, isFirst: isFirst, level: level) }

  /// Removes what was written since `mark` (a member that turned out to be left out, or
  /// containers left open by a write that is done again another way).
  mutating func rollBack(to mark: Mark) {
    bytes.truncate(to: mark.count)
    isFirst = mark.isFirst
    level = mark.level
  }

  /// Whether exactly `null` was written since `position` (a byte count): what `.omitNulls`
  /// and `.ignoreIfNull` leave out, whatever type wrote it.
  func wroteNull(since position: Int) -> Bool {
    bytes.count - position == 4 && bytes[position] == UInt8(ascii: "n")
  }

  // MARK: Scalars

  mutating func writeNull() { appendLiteral("null") }

  mutating func writeBool(_ value: Bool) { appendLiteral(value ? "true" : "false") }

  private mutating func appendLiteral(_ word: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
  }

  /// Writes an integer's decimal digits.
  @inline(__always)
  mutating func writeInteger<T: FixedWidthInteger>(_ value: T) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      writeDigits(UInt64(truncatingIfNeeded: 0 &- Int64(value)))  // Int64.min wraps to 2^63
    } else {
      writeDigits(UInt64(value))
    }
  }

  private mutating func writeDigits(_ value: UInt64) {
    if value < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(value))
      return
    }
    let count = JSONWriter.digitCount(value)
    bytes.write(atMost: count) { out in
      _ = JSONWriter.writeDigits(value, endingAt: out + count)
      return count
    }
  }

  /// How many decimal digits `value` has.
  @inline(__always)
  static func digitCount(_ value: UInt64) -> Int {
    var count = 1
    var rest = value
    while rest >= 10_000 {
      rest /= 10_000
      count &+= 4
    }
    if rest >= 10 { count &+= 1 }
    if rest >= 100 { count &+= 1 }
    if rest >= 1_000 { count &+= 1 }
    return count
  }

  /// "00" to "99", for writing integers two digits per division: constant bytes, no lazy
  /// initialization.
  private static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// Writes the decimal digits of `value` backwards so that they end just before `end`;
  /// returns where they start.
  @inline(__always)
  static func writeDigits(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    let pairs = UnsafeRawPointer(digitPairs.utf8Start)
    var position = end
    @inline(__always) func pair(_ twoDigits: UInt32) {
      position -= 2
      UnsafeMutableRawPointer(position).storeBytes(
        of: pairs.loadUnaligned(fromByteOffset: Int(twoDigits) &* 2, as: UInt16.self),
        as: UInt16.self)
    }
    var rest = value
    while rest >= 100_000_000 {
      // Eight digits at a time, in 32-bit arithmetic.
      let low = UInt32(truncatingIfNeeded: rest % 100_000_000)
      rest /= 100_000_000
      let (high4, low4) = (low / 10_000, low % 10_000)
      pair(low4 % 100)
      pair(low4 / 100)
      pair(high4 % 100)
      pair(high4 / 100)
    }
    var small = UInt32(truncatingIfNeeded: rest)
    while small >= 100 {
      pair(small % 100)
      small /= 100
    }
    if small >= 10 {
      pair(small)
    } else {
      position -= 1
      position[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: small)
    }
    return position
  }

  /// Writes a double in its shortest round-trip form (`0.1`, `1e-05`, `100.0`).
  /// - Throws: for infinity and NaN, which JSON cannot hold.
  @inline(__always)
  mutating func writeDouble(_ value: Double) throws {
    guard value.isFinite else {
      throw JSON.Error(.unencodable, "\(value) cannot be written as JSON: numbers must be finite")
    }
    // `description`'s text, written in place: no `String` is built.
    bytes.write(atMost: ShortestDouble.capacity) { ShortestDouble.write(value, to: $0) }
  }

  mutating func writeNumber(_ number: JSON.Number) throws {
    switch number.storage {
    case .int(let value): writeInteger(value)
    case .uint(let value): writeDigits(value)
    case .double(let value): try writeDouble(value)
    case .decimal(let double, let significand, let exponent):
      writeDecimal(significand, Int(exponent), negative: double.sign == .minus)
    case .text(let text):
      var text = text.text
      text.withUTF8 { bytes.append(contentsOf: $0) }
    }
  }

  /// Writes `significand × 10^exponent` with its exact digits (`12.50`, `0.00125`, `15e9`,
  /// `-0.0`), without building a `String`.
  private mutating func writeDecimal(_ significand: UInt64, _ exponent: Int, negative: Bool) {
    if negative { bytes.append(UInt8(ascii: "-")) }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      guard let end = buffer.baseAddress.map({ $0 + 20 }) else { return }
      let start = JSONWriter.writeDigits(significand, endingAt: end)
      let digits = UnsafeBufferPointer(start: start, count: end - start)
      let point = digits.count + exponent
      if exponent == 0 {
        bytes.append(contentsOf: digits)
      } else if exponent < 0 && point > 0 {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<point]))
        bytes.append(UInt8(ascii: "."))
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[point...]))
      } else if exponent < 0 && point > -7 {
        bytes.append(UInt8(ascii: "0"))
        bytes.append(UInt8(ascii: "."))
        for _ in 0 ..< -point { bytes.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: digits)
      } else {
        bytes.append(contentsOf: digits)
        bytes.append(UInt8(ascii: "e"))
        writeInteger(exponent)
      }
    }
  }

  /// Writes a quoted, escaped string.
  @inline(__always)
  mutating func writeString(_ string: String) {
    var string = string
    string.withUTF8 { writeQuoted($0) }
  }

  /// Writes the string stored at `address` without copying it (no retain) when its UTF-8 is
  /// contiguous, as native strings' is.
  @inline(__always)
  mutating func writeString(at address: UnsafePointer<String>) {
    let written: Void? = address.pointee.utf8.withContiguousStorageIfAvailable {
      writeQuoted($0)
    }
    if written == nil { writeString(address.pointee) }
  }

  /// Writes UTF-8 bytes as a quoted, escaped string: a short clean one in one append, others
  /// in clean runs (no `"`, `\` or control byte) found eight bytes at a time and copied whole.
  mutating func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    if appendShortQuoted(utf8, comma: false, colon: false) { return }
    bytes.append(UInt8(ascii: "\""))
    guard let base = utf8.baseAddress else {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    let count = utf8.count
    var runStart = 0
    var index = 0
    while index < count {
      if count - index >= 8 {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let stop = firstStringStop(UInt64(littleEndian: word))
        index += stop
        if stop == 8 { continue }
      }
      let byte = base[index]
      if isStringStop(byte) {
        if runStart < index {
          bytes.append(
            contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
        }
        appendEscape(byte)
        runStart = index + 1
      }
      index += 1
    }
    if runStart < count {
      bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func appendEscape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    default:
      let hex: StaticString = "0123456789abcdef"
      let digits = hex.utf8Start
      bytes.append(UInt8(ascii: "u"))
      bytes.append(0x30)
      bytes.append(0x30)
      bytes.append(digits[Int(byte >> 4)])
      bytes.append(digits[Int(byte & 15)])
    }
  }

  /// The text `write` produces, for descriptions (a value that cannot be written gives "").
  static func text(_ write: (inout JSONWriter) throws -> Void) -> String {
    var writer = JSONWriter(options: [], capacity: 32)
    guard (try? write(&writer)) != nil else { return "" }
    return String(decoding: writer.bytes.take(), as: UTF8.self)
  }

  /// The quoted, escaped form of `key`, for plans to store once and write many times.
  static func quotedKey(_ key: String) -> [UInt8] {
    var writer = JSONWriter(options: [], capacity: key.utf8.count + 2)
    writer.writeString(key)
    return writer.bytes.take()
  }
}

extension JSONWriter {
  /// Writes a whole `JSON` value.
  mutating func write(_ value: JSON) throws {
    switch value {
    case .null: writeNull()
    case .bool(let bool): writeBool(bool)
    case .number(let number): try writeNumber(number)
    case .string(let string): writeString(string)
    case .array(let array):
      try beginArray()
      for (position, element) in array.enumerated() {
        beginElement()
        do { try write(element) } catch {
          throw JSON.Error.wrapping(error).prefixed(index: position)
        }
      }
      endArray()
    case .object(let object):
      try beginObject()
      let members =
        sorted
        ? object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        : object.members
      for member in members where !(omitNulls && member.value == .null) {
        writeKey(member.key)
        do { try write(member.value) } catch {
          throw JSON.Error.wrapping(error).prefixed(key: member.key)
        }
      }
      endObject()
    case .missing(let error):
      throw JSON.Error(
        .unencodable, "a missing value cannot be written (\(error.description))")
    }
  }
}
