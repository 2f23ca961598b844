extension JSON {
  /// How an enum with payloads is laid out in JSON. An enum that adopts `JSONCodable` and
  /// `Codable` maps through its compiler-synthesized `Codable` conformance; this chooses how
  /// the case is named in the document. The enum sets it with `static var caseLayout`.
  ///
  /// ```swift
  /// enum Shape: JSONCodable, Codable {
  ///   case circle(radius: Double)
  ///   case rect(width: Double, height: Double)
  ///   case point(Double, Double)
  ///   case none
  ///   static let caseLayout = JSON.CaseLayout.internalTag("type")
  /// }
  /// ```
  ///
  /// | layout | `.circle(radius: 1)` | `.point(1, 2)` | `.none` |
  /// | --- | --- | --- | --- |
  /// | `.externalTag` (default) | `{"circle":{"radius":1}}` | `{"point":{"_0":1,"_1":2}}` | `{"none":{}}` |
  /// | `.internalTag("type")` | `{"type":"circle","radius":1}` | `{"type":"point","_0":1,"_1":2}` | `{"type":"none"}` |
  /// | `.adjacentTag("type", content: "value")` | `{"type":"circle","value":{"radius":1}}` | … | `{"type":"none"}` |
  /// | `.untagged(["circle", "point", "none"])` | `{"radius":1}` | `[1,2]` | `"none"` |
  ///
  /// Decoding also accepts a payload-free case as a plain string (`"none"`) with
  /// `.externalTag`, and without its `content` key with `.adjacentTag`.
  public enum CaseLayout: Sendable, Hashable {
    /// The case name is the one key of an object whose value holds the payload: what
    /// synthesized `Codable` writes.
    case externalTag
    /// The case name is under `tag`, beside the payload's own fields (which must not use `tag`).
    case internalTag(String)
    /// The case name is under `tag`, and the payload under `content`.
    case adjacentTag(String, content: String)
    /// No tag: the document is the payload alone, and decoding takes the first listed case
    /// whose payload maps. A payload-free case is its name (`"none"`), a single unlabeled
    /// payload is the value itself (`3`), several unlabeled ones an array (`[1, 2]`), labeled
    /// ones an object (`{"radius": 1}`).
    ///
    /// ```swift
    /// enum Setting: JSONCodable, Codable {
    ///   case flag(Bool)
    ///   case number(Int)
    ///   case range(Int, Int)
    ///   case named(name: String, value: Int)
    ///   case off
    ///   static let caseLayout = JSON.CaseLayout.untagged(["flag", "number", "range", "named", "off"])
    /// }
    /// try [Setting](jsonString: #"[true, 3, [1, 5], {"name": "x", "value": 1}, "off"]"#)
    /// ```
    ///
    /// The enum lists its cases, by their Swift names, in the order they are tried: Swift's
    /// synthesized `Codable` cannot list them, and AutoMap never reads an enum's metadata.
    /// Trials run the enum's synthesized `init(from:)` (a hand-written one must read the
    /// external-tag form as it does). A listed name that is not a case is an `.invalidModel`
    /// error at first use; encoding a case that is not listed is one too (it could never be
    /// read back).
    ///
    /// A document several cases could read is read as the first of them: list specific
    /// cases before general ones (`.int(Int)` before `.double(Double)`). A case matches only
    /// when its value would be written back in the same shape, so `.off` is only the string
    /// `"off"`, never an object. A case read from an object whose `init(from:)` requires a
    /// label (`named` above requires `name`) is written back as an object by synthesized
    /// `encode(to:)`: its value is not encoded to check, and a hand-written `encode(to:)` is
    /// not asked. When no case matches, the error names each case and why it failed.
    case untagged([String])
  }
}
