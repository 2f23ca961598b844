import Foundation

/// A type that can be made from JSON.
///
/// Adopt it and you are done: a struct, class or raw-value enum maps by reflection, with no
/// code. Each stored property reads the key of its own name.
///
/// ```swift
/// struct User: JSONDecodable {
///   let id: Int
///   let name: String
///   let website: URL?
/// }
///
/// let user = try User(jsonData: data)
/// let users = try [User](jsonString: #"[{"id": 1, "name": "Ada"}]"#)
/// let maybe = User(json["data", "user"])      // nil on any failure
/// ```
///
/// To change how a property maps, give ``JSONMappable/specificOptions()``. To take over completely, write
/// `init(decode:)` yourself; AutoMap then calls yours everywhere, also when the type is nested
/// in reflected models and when decoding straight from bytes.
public protocol JSONDecodable: JSONMappable {
  /// Makes a value from JSON. The default reads stored properties by reflection.
  init(decode json: JSON) throws

  /// Called after reflection has filled a value, to validate it or derive what it needs; a
  /// thrown error fails the decode with this value's path. The default does nothing.
  ///
  /// ```swift
  /// mutating func didDecode() throws {
  ///   guard age >= 0 else { throw JSON.Error.custom("age must not be negative") }
  ///   initials = String(name.prefix(1))
  /// }
  /// ```
  ///
  /// A class declares it in its base class so that subclasses can `override` it. It is not
  /// called for a hand-written `init(decode:)`.
  mutating func didDecode() throws
}

/// What ``JSONDecodable`` and ``JSONEncodable`` share: per-property options. One protocol
/// declares them so a type that adopts both has one `specificOptions()`.
///
/// Its metatypes are `Sendable` (`SendableMetatype`): a model's mapping plan is built once
/// and shared by every thread, so the engine passes model types across isolation domains.
public protocol JSONMappable: SendableMetatype {
  /// Per-property options, keyed by Swift property name. The default is none.
  ///
  /// ```swift
  /// static func specificOptions() -> [String: SpecificOption] {
  ///   ["id": "user_id", "website": [.transform(web), .ignoreIfNull], "tags": .nonNil]
  /// }
  /// ```
  ///
  /// Classes declare it `class func` so that subclasses can override it and add to
  /// `super.specificOptions()`.
  static func specificOptions() -> [String: SpecificOption]

  /// How property names become keys for properties without an `.index`: `.exact` unless
  /// the model says otherwise. A call can override it (`T(jsonData:keyStyle:)`).
  static var keyStyle: JSON.KeyStyle { get }

  /// For enums with payloads that map through their synthesized `Codable`: how the case is
  /// named in the document (see ``JSON/CaseLayout``). `.externalTag` unless the enum says
  /// otherwise; other types ignore it.
  static var caseLayout: JSON.CaseLayout { get }

  /// For enums with payloads under a tagged ``caseLayout``: the Swift names of every case, so
  /// that ``JSON/schema(for:keyStyle:)`` gives each case its own branch (its tag as a `const`,
  /// its payload's fields). Empty unless the enum lists them, and then the schema says only
  /// where the tag is: Swift cannot list an enum's cases, and AutoMap never reads its metadata.
  /// Decoding and encoding ignore it; the untagged layout lists its cases itself.
  ///
  /// ```swift
  /// enum Shape: JSONCodable, Codable {
  ///   case circle(radius: Double)
  ///   case rect(width: Double, height: Double)
  ///   static let caseLayout = JSON.CaseLayout.internalTag("type")
  ///   static let schemaCases = ["circle", "rect"]
  /// }
  /// ```
  ///
  /// List every case: a case left out is outside the schema, though it decodes and encodes.
  /// A name that is not a case is an `.invalidModel` error when the schema is made.
  static var schemaCases: [String] { get }
}

extension JSONMappable {
  /// No options: every property maps under its own key.
  public static func specificOptions() -> [String: SpecificOption] { [:] }
  /// `.exact`: keys are the property names.
  public static var keyStyle: JSON.KeyStyle { .exact }
  /// `.externalTag`: `{"circle": {"radius": 1}}`, as synthesized `Codable` writes it.
  public static var caseLayout: JSON.CaseLayout { .externalTag }
  /// None: the schema of a tagged enum says where the tag is, not which cases there are.
  public static var schemaCases: [String] { [] }
}

/// A type with an initializer that takes no arguments: what `nonNil` and `.nonNil` fall back
/// to, and what reflection starts from for classes and for structs whose declared defaults
/// should survive keys the JSON does not have.
///
/// ```swift
/// struct Settings: JSONCodable, DefaultInitable {
///   var theme = "light"
///   var fontSize = 12
/// }
/// try Settings(jsonString: #"{"fontSize": 14}"#).theme  // "light": kept from init()
///
/// class Animal: JSONCodable, DefaultInitable {  // a class needs it
///   var name = ""
///   required init() {}
/// }
/// ```
public protocol DefaultInitable {
  /// Makes the value AutoMap starts from: a model's declared defaults, or `""`, `0`, `false`
  /// and empty collections for the standard types.
  init()
}

extension JSONDecodable {
  /// Does nothing.
  public mutating func didDecode() throws {}

  /// Reads a value by reflection (see ``JSONDecodable``).
  public init(decode json: JSON) throws {
    self = try ModelDecoding.decode(Self.self, from: json)
  }

  /// Makes a value from JSON, or `nil` on any failure.
  ///
  /// ```swift
  /// if let id = Int(json["id"]) { … }
  /// ```
  public init?(_ json: JSON) {
    guard let value = try? Self(decode: json) else { return nil }
    self = value
  }

  /// Decodes UTF-8 JSON text straight into a value, without building a `JSON` tree first.
  ///
  /// ```swift
  /// let users = try [User](jsonData: data)
  /// ```
  ///
  /// - Throws: ``JSON/Error`` naming the path and what was expected and found; for malformed
  ///   text also the byte offset, line and column.
  ///
  /// Inside a call or scope whose ``JSON/Configuration/reading`` allows extensions (JSON5,
  /// comments), the text may use them.
  public init<Bytes: ContiguousBytes>(jsonData data: Bytes) throws {
    self = try data.withUnsafeBytes { try ModelDecoding.decode(Self.self, fromDocument: $0) }
  }

  /// Decodes JSON text held in a string.
  public init(jsonString string: String) throws {
    var string = string
    self = try string.withUTF8 {
      try ModelDecoding.decode(Self.self, fromDocument: UnsafeRawBufferPointer($0))
    }
  }
}

extension JSONDecodable {
  /// Decodes bytes with a key style for this call, overriding every model's own.
  ///
  /// ```swift
  /// let user = try User(jsonData: data, keyStyle: .snakeCase)   // avatarURL <- "avatar_url"
  /// ```
  public init<Bytes: ContiguousBytes>(jsonData data: Bytes, keyStyle: JSON.KeyStyle) throws {
    self = try KeyStyleContext.with(keyStyle) { try Self(jsonData: data) }
  }

  /// Decodes a string with a key style for this call, overriding every model's own.
  public init(jsonString string: String, keyStyle: JSON.KeyStyle) throws {
    self = try KeyStyleContext.with(keyStyle) { try Self(jsonString: string) }
  }

  /// Decodes a `JSON` value with a key style for this call, overriding every model's own.
  public init(decode json: JSON, keyStyle: JSON.KeyStyle) throws {
    self = try KeyStyleContext.with(keyStyle) { try Self(decode: json) }
  }

  /// Decodes only the value at `index`, straight from the bytes: nothing else is mapped, so
  /// the rest of the document need not fit any model, but it must still be valid JSON.
  ///
  /// ```swift
  /// let users = try [User](jsonData: data, at: ["data", "users"])
  /// ```
  ///
  /// - Throws: ``JSON/Error`` naming the path when nothing is there.
  public init<Bytes: ContiguousBytes>(
    jsonData data: Bytes, at index: JSON.Index, keyStyle: JSON.KeyStyle? = nil
  ) throws {
    self = try KeyStyleContext.with(keyStyle) {
      try data.withUnsafeBytes {
        try ModelDecoding.decode(Self.self, fromDocument: $0, at: index)
      }
    }
  }

  /// Decodes only the value at `index` of JSON text held in a string.
  public init(jsonString string: String, at index: JSON.Index, keyStyle: JSON.KeyStyle? = nil)
    throws
  {
    var string = string
    self = try KeyStyleContext.with(keyStyle) {
      try string.withUTF8 {
        try ModelDecoding.decode(Self.self, fromDocument: UnsafeRawBufferPointer($0), at: index)
      }
    }
  }
}

extension JSONDecodable where Self: DefaultInitable {
  /// Makes a value from JSON, or `Self()` on any failure.
  ///
  /// ```swift
  /// let names = [String](nonNil: json["names"])   // [] when absent or wrong
  /// ```
  public init(nonNil json: JSON) {
    self = (try? Self(decode: json)) ?? Self()
  }
}
