import Foundation

// Foundation leaf types. On the byte path they read their JSON value first (a string or a
// number) and convert it; their codecs are the model codecs of their `init(decode:)`.

extension Date: JSONDecodable, JSONEncodable {
  /// Reads a date through the call's ``JSON/Configuration/dateTransform``, else
  /// `DateTransform.default` (ISO 8601 unless changed).
  public init(decode json: JSON) throws {
    self = try DateTransform.forCall.date(from: json)
  }

  /// Writes the date through the call's ``JSON/Configuration/dateTransform``, else
  /// `DateTransform.default`.
  public var json: JSON {
    get throws { try DateTransform.forCall.json(for: self) }
  }
}

extension URL: JSONDecodable, JSONEncodable {
  /// Reads a URL from a string.
  public init(decode json: JSON) throws {
    self = try converting(json, to: "a URL") { URL(string: $0) }
  }

  /// Writes the absolute string.
  public var json: JSON { .string(absoluteString) }
}

extension UUID: JSONDecodable, JSONEncodable {
  /// Reads a UUID from its string form.
  public init(decode json: JSON) throws {
    self = try converting(json, to: "a UUID") { UUID(uuidString: $0) }
  }

  /// Writes the canonical string form (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
  public var json: JSON { .string(uuidString) }
}

extension Data: JSONDecodable, JSONEncodable {
  /// Reads bytes from a base64 string, or in the call's ``JSON/Configuration/dataEncoding``.
  public init(decode json: JSON) throws {
    if let encoding = ConfigurationContext.current?.dataEncoding, encoding != .base64 {
      self = try converting(json, to: encoding.expected) { encoding.decode($0) }
      return
    }
    self = try converting(json, to: "base64 data") { Data(base64Encoded: $0) }
  }

  /// Writes base64, or the call's ``JSON/Configuration/dataEncoding``.
  public var json: JSON {
    if let encoding = ConfigurationContext.current?.dataEncoding, encoding != .base64 {
      return .string(encoding.encode(self))
    }
    return .string(base64EncodedString())
  }
}

extension Decimal: JSONDecodable, JSONEncodable {
  /// Reads any JSON number from its exact digits, as many as `Decimal` holds (38):
  /// `0.10000000000000001` and `9007199254740993` are exact. A number beyond `Decimal`'s
  /// range is an error.
  public init(decode json: JSON) throws {
    guard case .number(let number) = json else {
      throw JSON.Error.mismatch(expected: "Decimal", found: json)
    }
    guard let value = number.decimalValue else {
      throw JSON.Error(
        .typeMismatch, "expected Decimal, found number \(number) (out of range)")
    }
    self = value
  }

  /// Written as a JSON number with every digit.
  public var json: JSON { .number(JSON.Number(self)) }
}

extension JSON.Number {
  /// A number with every digit of `value`: `Decimal(string: "9007199254740993")` writes as
  /// `9007199254740993`, not `9007199254740992.0`.
  public init(_ value: Decimal) {
    guard value.isFinite else {
      self.init(Double.nan)  // cannot be written, like any non-finite number
      return
    }
    var text = value.description
    let parsed: JSON.Number? = text.withUTF8 { bytes in
      try? JSONReader.withReader(UnsafeRawBufferPointer(bytes)) { reader in
        let number = try reader.readNumber()
        return reader.isAtEnd ? number : nil
      }
    }
    self = parsed ?? JSON.Number(NSDecimalNumber(decimal: value).doubleValue)
  }

  /// The value as a `Decimal`, from its exact digits; `nil` beyond `Decimal`'s range.
  public var decimalValue: Decimal? {
    let value: Decimal?
    switch storage {
    case .int(let int): value = Decimal(int)
    case .uint(let uint): value = Decimal(uint)
    case .double(let double):
      value = double.isFinite ? Decimal(string: "\(double)", locale: nil) : nil
    case .decimal(let double, let significand, let exponent):
      guard significand != 0 else { return Decimal(0) }
      guard (-128...127).contains(exponent) else { return Decimal(string: description) }
      value = Decimal(
        sign: double.sign, exponent: Int(exponent), significand: Decimal(significand))
    case .text(let text): value = Decimal(string: text.text, locale: nil)
    }
    guard let value, value.isFinite else { return nil }
    return value
  }
}

/// Reads a string and converts it; a string that does not convert is an error that says what
/// was expected.
private func converting<T>(_ json: JSON, to what: String, _ convert: (String) -> T?) throws -> T {
  let text = try String(decode: json)
  guard let value = convert(text) else {
    throw JSON.Error(.typeMismatch, "expected \(what), found string \(JSON.string(text))")
  }
  return value
}
