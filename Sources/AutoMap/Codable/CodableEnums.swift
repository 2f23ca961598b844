/// Enums with payloads: `enum Shape: JSONCodable, Codable { case circle(radius: Double) }`
/// maps with no code, through the enum's compiler-synthesized `Codable` conformance run
/// against AutoMap's own `Decoder` and `Encoder` (cases are built by the compiler's code,
/// never by reading metadata layouts).
///
/// Synthesized `Codable` speaks the external-tag layout (`{"circle": {"radius": 1}}`); the
/// other ``JSON/CaseLayout``s are converted to and from it around that code, and error
/// paths are converted back to the document's.
///
/// The model's plan for such an enum reads and writes the whole value (``DecodePlan/whole``),
/// so the per-field loops of other models are untouched.
enum CodableEnums {
  /// Whether `T` is an enum that maps this way: an enum, `Codable` the compiler's way (not
  /// through ``CodableByMapping``, which would call back into AutoMap for ever).
  private static func applies<T>(_: T.Type) -> Bool {
    RuntimeReflection.kind(of: T.self) == .other("an enum")
      && !(T.self is any CodableByMapping.Type)
  }

  static func decodePlan<T: JSONDecodable>(_: T.Type, style: JSON.KeyStyle, model: String)
    throws -> DecodePlan?
  {
    guard applies(T.self), let decodable = T.self as? any Decodable.Type else { return nil }
    let layout = T.caseLayout
    if case .untagged(let cases) = layout {
      let codable = try untaggedCodable(decodable, model: model)
      return try untaggedDecodePlan(T.self, codable, cases: cases, style: style, model: model)
    }
    func read<D: Decodable>(_: D.Type) throws -> (JSON, UnsafeMutableRawPointer) throws -> Void {
      { json, destination in
        let (external, name) = try external(json, layout, model: model)
        do {
          // The plan counts the document's own levels, as the byte path's reader does, not
          // those of the external form built from it: `decodeRoot` counts one, `within` the
          // rest (-1 for a case written as its name, which has none).
          let levels = ownLevels(json, layout)
          let value = try Substitutions.relocating({ documentPath($0, name: name, layout) }) {
            try Nesting.within(readerLevels: levels - 1) {
              try JSONValueDecoder.decodeRoot(D.self, from: external, style: style)
            }
          }
          RawValue.initialize(destination, to: value)
        } catch let error as JSON.Error {
          throw documentError(error, external: external, name: name, layout, model: model)
        }
      }
    }
    let whole = try read(decodable)
    /// From bytes: straight through ``ByteDecoder``; when it gives up, through `JSON`.
    func readBytes<D: Decodable>(_: D.Type) -> (inout JSONReader, UnsafeMutableRawPointer) throws
      -> Void
    {
      { reader, destination in
        if ByteDecoding.decodeEnum(
          D.self, &reader, layout: layout, style: style, into: destination)
        {
          return
        }
        let json = try reader.parseValue()
        try Nesting.within(readerLevels: reader.depth) { try whole(json, destination) }
      }
    }
    return DecodePlan(
      modelName: model, kind: .memberwise, fields: [], ignoredFields: [], caseInsensitive: false,
      destroyModel: { RawValue.destroy($0, as: T.self) },
      didDecode: { try RawValue.withMutable($0, as: T.self) { try $0.didDecode() } },
      whole: whole, wholeBytes: readBytes(decodable))
  }

  /// The nesting levels an enum's document has of its own, as a reader counts them: its
  /// object (none for a case written as its name) and, in the external and adjacent layouts,
  /// the payload's object or array. (The internal tag's payload is the document's object.)
  private static func ownLevels(_ json: JSON, _ layout: JSON.CaseLayout) -> Int {
    guard case .object(let object) = json else { return 0 }
    let payload: JSON?
    switch layout {
    case .externalTag, .untagged: payload = object.count == 1 ? object.values.first : nil
    case .internalTag: payload = nil
    case .adjacentTag(_, let content): payload = object[content]
    }
    switch payload {
    case .object?, .array?: return 2
    default: return 1
    }
  }

  /// The untagged layout decodes by trial and checks each trial by encoding it: both ways.
  private static func untaggedCodable(_ type: Any.Type, model: String) throws -> any Codable.Type {
    guard let codable = type as? any Codable.Type else {
      throw JSON.Error(
        .invalidModel,
        "\(model) has the untagged layout, which reads and writes it both ways: make it Codable")
    }
    return codable
  }

  /// The untagged layout: from bytes through ``UntaggedEnum/decodeBytes(_:into:)``; when it gives
  /// up, through `JSON` (``UntaggedEnum/decode(_:)``, the reference). The plan counts no
  /// nesting level for the enum: the untagged value counts its own (one per JSON level).
  private static func untaggedDecodePlan<T: JSONDecodable, C: Codable>(
    _: T.Type, _: C.Type, cases: [String], style: JSON.KeyStyle, model: String
  ) throws -> DecodePlan {
    let untagged = try UntaggedEnum<C>(
      cases: cases, style: style, model: model, checkingCases: true)
    return DecodePlan(
      modelName: model, kind: .memberwise, fields: [], ignoredFields: [], caseInsensitive: false,
      destroyModel: { RawValue.destroy($0, as: T.self) },
      didDecode: { try RawValue.withMutable($0, as: T.self) { try $0.didDecode() } },
      whole: { json, destination in
        RawValue.initialize(destination, to: try untagged.decode(json))
      },
      wholeBytes: { reader, destination in
        if try untagged.decodeBytes(&reader, into: destination) { return }
        let json = try reader.parseValue()
        let value = try Nesting.within(readerLevels: reader.depth) { try untagged.decode(json) }
        RawValue.initialize(destination, to: value)
      })
  }

  static func encodePlan<T: JSONEncodable>(_: T.Type, style: JSON.KeyStyle, model: String)
    throws -> EncodePlan?
  {
    guard applies(T.self), let encodable = T.self as? any Encodable.Type else { return nil }
    let layout = T.caseLayout
    if case .untagged(let cases) = layout {
      let codable = try untaggedCodable(encodable, model: model)
      return try untaggedEncodePlan(codable, cases: cases, style: style, model: model)
    }
    // The levels a document of the layout has of its own, as the byte path writes them (see
    // `ownLevels`; a case's payload is not known before it is written): `encodeRoot` counts
    // one.
    let levels = if case .internalTag = layout { 1 } else { 2 }
    func write<E: Encodable>(_: E.Type) throws -> (UnsafeRawPointer) throws -> JSON {
      { value in
        let value = RawValue.load(value, as: E.self)
        if levels > 1, Nesting.depth + levels == JSON.maximumDepth + 1,
          let external = try? JSONValueEncoder.encodeRoot(value, style: style),
          let written = try? document(external, layout, model: model),
          ownLevels(written, layout) == 1
        {
          // One level short of the bound, a case whose document is one level still fits, as
          // on the byte path: in the adjacent layout, a case with no payload (`{"tag":
          // "name"}`). Any other case is refused below.
          return written
        }
        let external = try Nesting.within(readerLevels: levels - 1) {
          try JSONValueEncoder.encodeRoot(value, style: style)
        }
        return try document(external, layout, model: model)
      }
    }
    let whole = try write(encodable)
    let shape = ByteEncoder.Layout(layout) ?? .plain  // not untagged: those returned above
    /// To bytes: straight through ``ByteEncoder``; when it gives up, through `JSON`.
    func writeBytes<E: Encodable>(_: E.Type) -> (UnsafeRawPointer, inout JSONWriter) throws -> Void
    {
      { value, writer in
        let enumValue = RawValue.load(value, as: E.self)
        if ByteEncoding.encodeEnum(enumValue, layout: shape, style: style, &writer) { return }
        try writer.write(whole(value))
      }
    }
    return EncodePlan(
      modelName: model, isClass: false, fields: [], whole: whole,
      wholeBytes: writeBytes(encodable))
  }

  /// The untagged layout: to bytes through ``UntaggedEnum/encodeBytes(_:_:)``; when it gives
  /// up, through `JSON` (``UntaggedEnum/encode(_:)``, the reference).
  private static func untaggedEncodePlan<C: Codable>(
    _: C.Type, cases: [String], style: JSON.KeyStyle, model: String
  ) throws -> EncodePlan {
    let untagged = try UntaggedEnum<C>(cases: cases, style: style, model: model)
    return EncodePlan(
      modelName: model, isClass: false, fields: [],
      whole: { value in try untagged.encode(RawValue.load(value, as: C.self)) },
      wholeBytes: { value, writer in
        let value = RawValue.load(value, as: C.self)
        if untagged.encodeBytes(value, &writer) { return }
        try writer.write(untagged.encode(value))
      })
  }

  // MARK: Layouts

  /// The document's value in the external-tag layout, and the case name when there is one.
  private static func external(_ json: JSON, _ layout: JSON.CaseLayout, model: String) throws
    -> (JSON, String?)
  {
    guard case .object(var object) = json else {
      if case .externalTag = layout, case .string(let name) = json {
        return (.object(JSON.Object([(name, .object(JSON.Object()))])), name)  // "none"
      }
      throw JSON.Error.mismatch(expected: "\(model) (an object naming its case)", found: json)
    }
    switch layout {
    case .externalTag, .untagged:  // untagged documents are read by `UntaggedEnum`
      return (json, object.count == 1 ? object.keys.first : nil)
    case .internalTag(let tag):
      let name = try caseName(object, tag, model: model)
      object[tag] = nil
      return (.object(JSON.Object([(name, .object(object))])), name)
    case .adjacentTag(let tag, let content):
      let name = try caseName(object, tag, model: model)
      let payload = object[content] ?? .object(JSON.Object())
      return (.object(JSON.Object([(name, payload)])), name)
    }
  }

  private static func caseName(_ object: JSON.Object, _ tag: String, model: String) throws
    -> String
  {
    guard let value = object[tag] else {
      throw JSON.Error(
        .missingValue, "missing key \(JSON.string(tag)) naming the case of \(model)",
        path: [.key(tag)])
    }
    guard case .string(let name) = value else {
      throw JSON.Error.mismatch(expected: "a case name of \(model)", found: value).prefixed(
        key: tag)
    }
    return name
  }

  /// The external-tag value that synthesized `encode(to:)` wrote, in `layout`.
  private static func document(_ external: JSON, _ layout: JSON.CaseLayout, model: String)
    throws -> JSON
  {
    if case .externalTag = layout { return external }
    guard case .object(let object) = external, object.count == 1,
      let (name, payload) = object.members.first.map({ ($0.key, $0.value) })
    else {
      throw JSON.Error(
        .unencodable, "\(model).encode(to:) did not write one case key, as synthesized Codable does"
      )
    }
    switch layout {
    case .externalTag, .untagged:  // untagged documents are written by `UntaggedEnum`
      return external
    case .internalTag(let tag):
      guard case .object(let fields) = payload else {
        throw JSON.Error(
          .unencodable, "\(model).\(name) has no fields to put \(JSON.string(tag)) beside")
      }
      guard fields[tag] == nil else {
        throw JSON.Error(
          .unencodable,
          "\(model).\(name) has a payload field \(JSON.string(tag)), which is the case layout's tag"
        )
      }
      var result = JSON.Object()
      result.append(tag, .string(name))
      for (key, value) in fields { result.append(key, value) }
      return .object(result)
    case .adjacentTag(let tag, let content):
      var result = JSON.Object()
      result.append(tag, .string(name))
      if case .object(let fields) = payload, fields.isEmpty { return .object(result) }
      result[content] = payload
      return .object(result)
    }
  }

  /// A path in the external-tag value (outermost first) as a path in the document: the case
  /// key stays (external tag), goes (internal tag) or becomes the content key (adjacent tag).
  private static func documentPath(
    _ components: [JSON.Error.Component], name: String?, _ layout: JSON.CaseLayout
  ) -> [JSON.Error.Component] {
    guard let name, components.first == .key(name) else { return components }
    switch layout {
    case .externalTag, .untagged: return components
    case .internalTag: return Array(components.dropFirst())
    case .adjacentTag(_, let content): return [.key(content)] + components.dropFirst()
    }
  }

  /// An error from decoding the external-tag value, in terms of the document: its path as
  /// the layout lays the payload out, and the case named.
  private static func documentError(
    _ error: JSON.Error, external: JSON, name: String?, _ layout: JSON.CaseLayout, model: String
  ) -> JSON.Error {
    guard let name, let outermost = error.reversedPath.last, outermost == .key(name) else {
      if error.reversedPath.isEmpty, error.kind == .typeMismatch,
        case .object(let object) = external
      {
        // Synthesized code found no case key it knows.
        let found =
          object.count == 1
          ? "\(JSON.string(object.keys[0])) is not a case"
          : "\(object.count) keys name no single case"
        return JSON.Error(.typeMismatch, "\(found) of \(model)", underlying: error.underlying)
      }
      return error
    }
    // Each problem the payload collected (collectsAllErrors) moves the same way.
    func relocated(_ problem: JSON.Error) -> JSON.Error {
      var problem = problem
      guard problem.reversedPath.last == .key(name) else { return problem }
      problem.reversedPath = documentPath(problem.reversedPath.reversed(), name: name, layout)
        .reversed()
      return JSON.Error(
        problem.kind, "\(problem.message) (in \(model).\(name))",
        path: problem.reversedPath.reversed(), underlying: problem.underlying)
    }
    var result = relocated(error.single)
    result.moreProblems = error.moreProblems.map(relocated)
    result.problemTotal = error.problemTotal
    result.endsCollecting = error.endsCollecting
    return result
  }
}
