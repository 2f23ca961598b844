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
  }
}
