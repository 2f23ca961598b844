// Enums: by raw value (RawRepresentable), or by case name (CaseIterable without raw
// values). Both are leaf values: they never go through reflection. A value that names no
// case goes to the enum's aliases and fallback case (``JSONCaseAliases``,
// ``JSONFallbackCase``), which are looked up only then.

extension JSONDecodable where Self: RawRepresentable, RawValue: JSONDecodable {
  /// Reads the raw value; one that names no case is an error, unless the enum declares
  /// aliases or a fallback case.
  public init(decode json: JSON) throws { self = try decodeRawValue(json) }
}

extension JSONEncodable where Self: RawRepresentable, RawValue: JSONEncodable {
  /// Writes the raw value.
  public var json: JSON {
    get throws { try rawValue.json }
  }
}

extension JSONDecodable where Self: CaseIterable {
  /// An enum without raw values maps by case name: `"red"` is `Color.red`.
  public init(decode json: JSON) throws {
    let name = try String(decode: json)
    let caseNamed = { (name: String) in Self.allCases.first { String(describing: $0) == name } }
    guard
      let value = try caseNamed(name) ?? EnumResilience.resolve(Self.self, name, caseOf: caseNamed)
    else {
      let names = Self.allCases.map { String(describing: $0) }.joined(separator: ", ")
      throw JSON.Error(
        .typeMismatch, "\(JSON.string(name)) is not a case of \(typeName(Self.self)) (\(names))")
    }
    self = value
  }
}

extension JSONEncodable where Self: CaseIterable {
  /// Writes the case name.
  public var json: JSON { .string(String(describing: self)) }
}

// An enum that has raw values and is CaseIterable maps by raw value; these resolve the choice
// between the two extensions above.
extension JSONDecodable where Self: CaseIterable & RawRepresentable, RawValue: JSONDecodable {
  /// Reads the raw value (raw values win over case names).
  public init(decode json: JSON) throws { self = try decodeRawValue(json) }
}

extension JSONEncodable where Self: CaseIterable & RawRepresentable, RawValue: JSONEncodable {
  /// Writes the raw value.
  public var json: JSON {
    get throws { try rawValue.json }
  }
}

private func decodeRawValue<T: RawRepresentable>(_ json: JSON) throws -> T
where T.RawValue: JSONDecodable {
  // The raw value as JSON text in the message: `"admn" is not a raw value of Role`.
  let raw = try T.RawValue(decode: json)
  guard let value = try T(rawValue: raw) ?? EnumResilience.resolve(T.self, raw, caseOf: T.init)
  else {
    throw JSON.Error(.typeMismatch, "\(json) is not a raw value of \(typeName(T.self))")
  }
  return value
}
