import Foundation

// Foundation leaf types. On the byte path they read their JSON value first (a string or a
// number) and convert it; their codecs are the model codecs of their `init(decode:)`.

extension Date: JSONDecodable, JSONEncodable {
  /// Reads a date through `DateTransform.default` (ISO 8601 unless changed).
  public init(decode json: JSON) throws {
    self = try DateTransform.default.date(from: json)
  }

  /// Writes the date through `DateTransform.default`.
  public var json: JSON {
    get throws { try DateTransform.default.json(for: self) }
  }
}

extension URL: JSONDecodable, JSONEncodable {
  /// Reads a URL from a string.
  public init(decode json: JSON) throws {
    self = try converting(json, to: "a URL") { URL(string: $0) }
  }

  public var json: JSON { .string(absoluteString) }
}

extension UUID: JSONDecodable, JSONEncodable {
  /// Reads a UUID from its string form.
  public init(decode json: JSON) throws {
    self = try converting(json, to: "a UUID") { UUID(uuidString: $0) }
  }

  public var json: JSON { .string(uuidString) }
}

extension Data: JSONDecodable, JSONEncodable {
  /// Reads bytes from a base64 string.
  public init(decode json: JSON) throws {
    self = try converting(json, to: "base64 data") { Data(base64Encoded: $0) }
  }

  public var json: JSON { .string(base64EncodedString()) }
}

extension Decimal: JSONDecodable, JSONEncodable {
  /// Reads any JSON number; the decimal digits of its shortest form are kept (`0.1` is
  /// exactly 0.1).
  public init(decode json: JSON) throws {
    guard case .number(let number) = json, let value = Decimal(string: number.description) else {
      throw JSON.Error.mismatch(expected: "Decimal", found: json)
    }
    self = value
  }

  /// Written as a JSON number: integers exactly, others as the nearest double.
  public var json: JSON {
    if let int = Int64(exactly: NSDecimalNumber(decimal: self).doubleValue), Decimal(int) == self {
      return JSON(int)
    }
    return JSON(NSDecimalNumber(decimal: self).doubleValue)
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
