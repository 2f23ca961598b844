/// A UTF-8 validator as a shift-based automaton: one table load and one shift per byte.
///
/// Each state is a bit offset (a multiple of 6) into a 64-bit row, and the row for a byte
/// holds, at each state's offset, the offset of the state that byte leads to. A step is
/// `state = row[byte] &>> state`: the shift uses only the low six bits of `state`, so the
/// bits above them need no masking, and a step costs one dependent instruction. The error
/// state is offset 0, whose six bits are zero in every row, so it is never left.
///
/// The states are those of the UTF-8 grammar (RFC 3629): between characters, expecting one,
/// two or three continuation bytes, and the four leads whose second byte has its own range
/// (E0: A0-BF, ED: 80-9F, F0: 90-BF, F4: 80-8F).
enum UTF8Automaton {
  private static let error: UInt64 = 0
  private static let accept: UInt64 = 6
  private static let tail1: UInt64 = 12
  private static let tail2: UInt64 = 18
  private static let tail3: UInt64 = 24
  private static let afterE0: UInt64 = 30
  private static let afterED: UInt64 = 36
  private static let afterF0: UInt64 = 42
  private static let afterF4: UInt64 = 48

  /// The row of each byte value.
  private static let rows: [UInt64] = (0...255).map { row(for: UInt8($0)) }

  private static func row(for byte: UInt8) -> UInt64 {
    var row: UInt64 = 0
    func on(_ state: UInt64, goTo next: UInt64) { row |= next << state }
    switch byte {
    case 0x00...0x7F: on(accept, goTo: accept)
    case 0xC2...0xDF: on(accept, goTo: tail1)
    case 0xE0: on(accept, goTo: afterE0)
    case 0xE1...0xEC, 0xEE...0xEF: on(accept, goTo: tail2)
    case 0xED: on(accept, goTo: afterED)
    case 0xF0: on(accept, goTo: afterF0)
    case 0xF1...0xF3: on(accept, goTo: tail3)
    case 0xF4: on(accept, goTo: afterF4)
    default: break
    }
    if (0x80...0xBF).contains(byte) {
      on(tail1, goTo: accept)
      on(tail2, goTo: tail1)
      on(tail3, goTo: tail2)
    }
    if (0xA0...0xBF).contains(byte) { on(afterE0, goTo: tail1) }
    if (0x80...0x9F).contains(byte) { on(afterED, goTo: tail1) }
    if (0x90...0xBF).contains(byte) { on(afterF0, goTo: tail2) }
    if (0x80...0x8F).contains(byte) { on(afterF4, goTo: tail2) }
    return row
  }

  /// Whether `bytes` is valid UTF-8. Runs of eight ASCII bytes between characters are
  /// stepped over whole.
  static func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    return rows.withUnsafeBufferPointer { rows in
      var state = accept
      var index = 0
      while count - index >= 8 {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 || state & 63 != accept {
          for offset in 0..<8 { state = rows[Int(base[index &+ offset])] &>> state }
        }
        index &+= 8
      }
      while index < count {
        state = rows[Int(base[index])] &>> state
        index &+= 1
      }
      return state & 63 == accept
    }
  }
}
