import Foundation

extension JSON.DataEncoding {
  /// For messages: "base64 data".
  var expected: String {
    switch self {
    case .base64: "base64 data"
    case .base64URL: "base64url data"
    case .hex: "hexadecimal data"
    }
  }

  /// The bytes `text` spells in this encoding; `nil` when it spells none.
  func decode(_ text: String) -> Data? {
    switch self {
    case .base64: return Data(base64Encoded: text)
    case .base64URL:
      guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
      var standard = text.replacingOccurrences(of: "-", with: "+")
        .replacingOccurrences(of: "_", with: "/")
      if !standard.hasSuffix("=") {
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
      }
      return Data(base64Encoded: standard)
    case .hex:
      let digits = Array(text.utf8)
      guard digits.count % 2 == 0 else { return nil }
      var bytes = Data(capacity: digits.count / 2)
      var position = 0
      while position < digits.count {
        guard let high = Self.hexValue(digits[position]),
          let low = Self.hexValue(digits[position + 1])
        else { return nil }
        bytes.append(high << 4 | low)
        position += 2
      }
      return bytes
    }
  }

  /// `data` as text in this encoding.
  func encode(_ data: Data) -> String {
    switch self {
    case .base64: return data.base64EncodedString()
    case .base64URL:
      var text = data.base64EncodedString()
      text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      while text.hasSuffix("=") { text.removeLast() }
      return text
    case .hex:
      let digits = Array("0123456789abcdef".utf8)
      var text: [UInt8] = []
      text.reserveCapacity(data.count * 2)
      for byte in data {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
      }
      return String(decoding: text, as: UTF8.self)
    }
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
