import CAutoMapShims

/// The untagged layout (``JSON/CaseLayout/untagged(_:)``): the document is the payload alone,
/// and decoding tries the listed cases in order.
///
/// Synthesized `Codable` speaks only the external tag (`{"circle": {"radius": 1}}`), so each
/// trial wraps the document into that form and runs the enum's own `init(from:)`: AutoMap never
/// builds a case itself and never reads an enum's layout. Synthesized code cannot list an enum's
/// cases, so the enum lists them in its layout; each listed name is checked to be a case when
/// the plan is built, once per type.
///
/// A payload has one of four shapes, decided by the keys synthesized `encode(to:)` writes for
/// it: none (`{}`: written as the case name), `_0` alone (the value itself), `_0`…`_n`
/// (an array), anything else (the object). A trial succeeds only when the value it decoded
/// encodes back to the shape it was read from, so decode → encode → decode gives equal values,
/// and a payload-free case never swallows an object.
///
/// Trials of the same part of the document as the same enum are remembered for the duration of
/// the outermost untagged value, so a recursive enum costs each (subtree, enum) pair one
/// decode, not one per way of reaching it: no document makes the search exponential.
final class UntaggedEnum<E: Codable>: @unchecked Sendable {  // immutable after creation
  let model: String
  let style: JSON.KeyStyle
  /// Swift case names, in the order they are tried.
  let cases: [String]
  /// The same names as keys in the document: the key style applied as `JSONEncoder` does.
  let keys: [String]

  /// For each case, what its `init(from:)` asks of the payload before a missing key fails it,
  /// learned when the cases are checked; `nil` when unknown. Trials on bytes skip a case whose
  /// payload would fail it having read nothing (``decodeBytes(_:into:)``), and neither path checks
  /// the shape of a case read as an object that requires a label.
  let needs: [UntaggedCaseNeeds?]

  /// `checkingCases`: run each case's `init(from:)` once on an empty payload, to check every
  /// listed name is a case and learn its ``needs`` (decoding plans do; encoding needs
  /// neither).
  init(cases: [String], style: JSON.KeyStyle, model: String, checkingCases: Bool = false) throws {
    self.model = model
    self.style = style
    self.cases = cases
    keys = cases.map { style.jsonKey(forCodingKey: $0) }
    guard !cases.isEmpty else {
      throw JSON.Error(
        .invalidModel, "\(model) has the untagged layout with no cases: list them in .untagged([…])"
      )
    }
    var seen = Set<String>()
    for key in keys where !seen.insert(key).inserted {
      throw JSON.Error(
        .invalidModel, "\(model).caseLayout lists the case \(JSON.string(key)) twice")
    }
    needs =
      checkingCases
      ? try Self.checkCases(cases, keys, style: style, model: model)
      : Array(repeating: nil, count: cases.count)
  }

  /// Checks that every listed name is a case of the enum: the synthesized `init(from:)` of an
  /// external-tag object with that key either builds the case or fails inside its payload.
  /// Returns, for each case, its needs, when the empty payload failed on a missing key and the
  /// needs probe saw the same key missing.
  private static func checkCases(
    _ cases: [String], _ keys: [String], style: JSON.KeyStyle, model: String
  ) throws -> [UntaggedCaseNeeds?] {
    var needs: [UntaggedCaseNeeds?] = []
    for (name, key) in zip(cases, keys) {
      let probe = JSON.object(JSON.Object([(key, .object(JSON.Object()))]))
      var learned: UntaggedCaseNeeds?
      do {
        _ = try JSONValueDecoder.decodeRoot(E.self, from: probe, style: style)
      } catch let error as JSON.Error
        where error.reversedPath.isEmpty && error.kind == .typeMismatch
      {
        throw JSON.Error(
          .invalidModel,
          "\(model).caseLayout lists \(JSON.string(name)), which is not a case of \(model)"
            + " (case names are the Swift names, as declared)")
      } catch let error as JSON.Error where error.kind == .missingValue {
        if style == .exact, error.reversedPath.count == 2, error.reversedPath[1] == .key(key),
          case .key(let field) = error.reversedPath[0]
        {
          learned = UntaggedCaseNeeds.learn(E.self, caseKey: key).flatMap {
            $0.required == field ? $0 : nil
          }
        }
      } catch {}
      needs.append(learned)
    }
    return needs
  }

  // MARK: Encoding

  /// The untagged document of `value`, through `JSON` (the reference). Counts a nesting level
  /// only when the payload is written as an array or object (or the probe cannot tell), so
  /// that one JSON level is one level, as for decoding.
  func encode(_ value: E) throws -> JSON {
    try Nesting.checkStack(encoding: true)
    let shape = UntaggedProbe.shape(of: value)?.shape
    // The external form's levels around the document: its object, and the payload's object
    // when the document is a name or a single value (or the probe cannot tell: one).
    let isScalar = shape == .name || shape == .single
    let root = Nesting.depth - (isScalar ? 2 : 1)
    if isScalar { return try document(encodeExternal(value, rootDepth: root)) }
    return try Nesting.level(encoding: true) {
      try document(encodeExternal(value, rootDepth: root))
    }
  }

  /// The enum's own `encode(to:)`, in the external-tag form, which counts no nesting level
  /// (``JSONValueEncoder/encodeRoot(_:style:)`` counts one).
  private func encodeExternal(_ value: E, rootDepth: Int) throws -> JSON {
    let encoder = JSONValueEncoder(box: EncodingBox(depth: rootDepth), path: .root, style: style)
    do {
      try value.encode(to: encoder)
      return try encoder.box.json()
    } catch {
      throw CodableErrors.jsonError(error, style: style)
    }
  }

  /// The untagged document for what synthesized `encode(to:)` wrote.
  func document(_ external: JSON) throws -> JSON {
    guard case .object(let object) = external, object.count == 1, let member = object.members.first
    else {
      throw JSON.Error(
        .unencodable, "\(model).encode(to:) did not write one case key, as synthesized Codable does"
      )
    }
    guard keys.contains(member.key) else {
      throw JSON.Error(
        .invalidModel,
        "\(model).\(member.key) is not listed in \(model).caseLayout (.untagged): it could never be"
          + " decoded. Add it to the list")
    }
    guard case .object(let payload) = member.value else { return member.value }
    switch Shape(member.value) {
    case .name: return .string(member.key)
    case .single: return payload.members.first?.value ?? .null
    case .array: return .array(payload.members.map(\.value))
    case .object: return member.value
    }
  }

  // MARK: Decoding

  /// Counts no nesting level of its own (its model's plan counts none either: see
  /// ``DecodePlan/whole``): the document is the payload, whose array or object
  /// is counted once, by the trial that reads it as several values or as labels, or by the
  /// payload's own type when it is read as one value. So one JSON level is one level, on every
  /// path.
  ///
  /// Each level takes far more stack than a model's (a trial, the enum's `init(from:)`, the
  /// external-tag form), so a thread whose stack runs low throws the depth error instead of
  /// overflowing (``Nesting/checkStack()``), whatever the build (debug, AddressSanitizer).
  func decode(_ json: JSON) throws -> E {
    try Nesting.checkStack()
    if let session = UntaggedSession.current {
      return try session.remember(self, model: model, json)
    }
    if let trials = UntaggedByteMemo.installed {
      // Under a trial on bytes (a type's first use reads its value through `JSON`): this
      // value cannot see the trials under way there, and could pass through a case that holds
      // the enum at the same value again. The outermost value is decoded through `JSON`.
      trials.unsure = true
      throw Self.unsureError
    }
    let session = UntaggedSession()
    return try UntaggedSession.$current.withValue(session) {
      try session.remember(self, model: model, json)
    }
  }

  /// Tries each case in order; the first that maps wins. (Frames are kept few: the
  /// substitution wrappers run only when the call records substitutions.)
  func trial(_ json: JSON) throws -> E {
    var reasons: [String] = []
    for (index, (name, key)) in zip(cases, keys).enumerated() {
      var best: (error: JSON.Error, rank: Int)?
      let needs = needs[index]
      for shape in Shape.candidates(for: json, key: key) {
        do {
          // A case that fails was never the value: what it substituted is not recorded.
          guard Substitutions.isRecording else {
            return try attempt(json, key: key, as: shape, needs)
          }
          return try Substitutions.tentatively { try attempt(json, key: key, as: shape, needs) }
        } catch let error as JSON.Error {
          guard error.isRecoverable else { throw error }
          let rank = Self.rank(error, shape)
          if best == nil || rank > best?.rank ?? 0 { best = (error, rank) }
        }
      }
      reasons.append("\(name): \(Self.brief(best?.error))")
    }
    throw JSON.Error(
      .typeMismatch,
      "no case of \(model) matches \(json.briefDescription), tried "
        + reasons.joined(separator: "; "))
  }

  /// One case, with the document read as one shape of payload. The value must write back the
  /// shape it was read from, unless it was read as an object and its case requires a label
  /// (`needs`): synthesized `encode(to:)` writes that label back, so an object. That holds
  /// for synthesized code only, and is the rule for every enum: a hand-written `encode(to:)`
  /// is not asked.
  private func attempt(
    _ json: JSON, key: String, as shape: Shape, _ needs: UntaggedCaseNeeds?
  ) throws -> E {
    let payload: JSON
    switch shape {
    case .name: payload = .object(JSON.Object())
    case .single: payload = .object(JSON.Object([("_0", json)]))
    case .array:
      guard case .array(let elements) = json else { throw JSON.Error(.typeMismatch, "") }
      payload = .object(JSON.Object(elements.enumerated().map { ("_\($0.offset)", $0.element) }))
    case .object: payload = json
    }
    let external = JSON.object(JSON.Object([(key, payload)]))
    let value: E
    do {
      if Substitutions.isRecording {
        // Only non-generic values in the closure: it is `@Sendable`, and `E.Type` is not.
        let (single, array) = (shape == .single, shape.isArray)
        value = try Substitutions.relocating({
          untaggedDocumentPath($0, key: key, single: single, array: array)
        }) {
          try decodeExternal(external, counting: shape)
        }
      } else {
        value = try decodeExternal(external, counting: shape)
      }
    } catch let error as JSON.Error {
      throw documentError(error, key: key, shape: shape)
    }
    if shape == .object, needs?.requiresLabel == true { return value }
    // The value must be written back in the shape it was read from.
    guard
      case .object(let written) = try encodeExternal(
        value, rootDepth: Nesting.depth - shape.levelsAround),
      let member = written.members.first, member.key == key
    else { throw JSON.Error(.typeMismatch, "it writes another case") }
    let writes = Shape(member.value)
    guard writes == shape else {
      throw JSON.Error(.typeMismatch, "expected \(writes.expectation(key))", path: [Self.shapeMark])
    }
    return value
  }

  /// The enum's own `init(from:)` over the external-tag form, which is not in the document and
  /// counts no nesting level (``JSONValueDecoder/decodeRoot(_:from:style:)`` counts one); the
  /// document's array or object (`shape`) counts one.
  private func decodeExternal(_ external: JSON, counting shape: Shape) throws -> E {
    let root = JSONValueDecoder(
      value: external, path: .root, style: style, depth: Nesting.depth - shape.levelsAround)
    switch shape {
    case .array, .object:
      defer { automap_leave_level() }
      if automap_enter_level() > JSON.maximumDepth { throw Nesting.tooDeep(encoding: false) }
    case .name, .single: break
    }
    do {
      return try E(from: root)
    } catch {
      throw CodableErrors.jsonError(error, style: style)
    }
  }

  /// An error of the external-tag decode, with the path of the untagged document.
  private func documentError(_ error: JSON.Error, key: String, shape: Shape) -> JSON.Error {
    var error = error
    error.reversedPath = Self.documentPath(error.reversedPath.reversed(), key: key, shape: shape)
      .reversed()
    return error
  }

  private static func documentPath(
    _ components: [JSON.Error.Component], key: String, shape: Shape
  ) -> [JSON.Error.Component] {
    untaggedDocumentPath(components, key: key, single: shape == .single, array: shape.isArray)
  }

  /// Marks a trial that decoded but would write another shape: the most telling failure.
  private static var shapeMark: JSON.Error.Component { .key("\u{0}shape") }

  /// How telling a trial's failure is: a value of the wrong shape first; then the deeper the
  /// error, the closer the case came to mapping (a missing value below a wrong one). Reading
  /// an array as several values and failing at its first, or an object as labels and missing
  /// `_0`, says only that the case takes something else: the whole-value trial says what.
  private static func rank(_ error: JSON.Error, _ shape: Shape) -> Int {
    if error.reversedPath == [shapeMark] { return 1000 }
    let outermost = error.reversedPath.last
    switch (shape, outermost) {
    case (.array, .index(0)?): return 0
    case (.object, .key(let key)?) where error.kind == .missingValue && key.hasPrefix("_"):
      return 0
    default: return 2 * error.reversedPath.count + (error.kind == .missingValue ? 0 : 1)
    }
  }

  /// A failure in a few words: nested untagged values' own lists are cut short, so messages
  /// stay small whatever the nesting.
  private static func brief(_ error: JSON.Error?) -> String {
    guard var error else { return "no shape fits" }
    if error.reversedPath == [shapeMark] { return error.message }
    if error.kind == .missingValue, error.message.hasPrefix("missing key"),
      !error.reversedPath.isEmpty
    {
      error.reversedPath.removeFirst()  // the message names the key
    }
    var text = error.reversedPath.isEmpty ? error.message : "at \(error.path), \(error.message)"
    if text.count > 100 { text = text.prefix(97) + "…" }
    return text
  }

  /// The shape of a payload, as synthesized `encode(to:)` writes it and the untagged document
  /// holds it.
  enum Shape: Equatable {
    /// No payload: the document is the case name.
    case name
    /// One unlabeled value: the document is that value.
    case single
    /// Several unlabeled values: the document is an array.
    case array(Int)
    /// Labeled values: the document is the object.
    case object

    /// The external form's levels around a document of this shape (`{"case": {"_0": value}}`
    /// around a single value, `{"case": …}` around an array or object).
    var levelsAround: Int {
      switch self {
      case .name, .single: 2
      case .array, .object: 1
      }
    }

    /// The shape of an external-tag payload.
    init(_ payload: JSON) {
      guard case .object(let fields) = payload else {
        self = .object  // not what synthesized code writes; kept as it is
        return
      }
      let keys = fields.keys
      if keys.isEmpty {
        self = .name
      } else if keys == ["_0"] {
        self = .single
      } else if keys.enumerated().allSatisfy({ $0.element == "_\($0.offset)" }) {
        self = .array(keys.count)
      } else {
        self = .object
      }
    }

    /// The shapes a document could be read as for the case with `key`, most specific first.
    static func candidates(for json: JSON, key: String) -> [Shape] {
      var shapes: [Shape] = []
      if case .string(key) = json { shapes.append(.name) }
      shapes.append(.single)
      switch json {
      case .array(let elements) where elements.count >= 2: shapes.append(.array(elements.count))
      case .object: shapes.append(.object)
      default: break
      }
      return shapes
    }

    var isArray: Bool {
      if case .array = self { return true }
      return false
    }

    func expectation(_ key: String) -> String {
      switch self {
      case .name: "the string \(JSON.string(key).description)"
      case .single: "one value"
      case .array(let count): "an array of \(count) values"
      case .object: "an object"
      }
    }
  }
}

/// What the trials of one outermost untagged value remember: the outcome of each (enum, part of
/// the document) pair tried, keyed by the identity of the part's storage (arrays and objects;
/// scalars are cheap to try again). Each entry keeps its `JSON` alive, so an identity cannot be
/// reused by other storage while the session lasts.
///
/// Empty arrays and objects are tried again like scalars: Swift gives every empty array one
/// shared storage, so `[{}, {}]` would otherwise hand both elements the one value decoded for
/// the first, the same instance when a payload is a class. (A hand-built `JSON` that holds one
/// array or object value at several places shares its storage too, and gets a shared value.)
///
/// It also stops loops: a case whose first payload is the enum itself (`pair(Tree, Tree)` read
/// as one value) asks for the same enum at the same value again. That inner trial fails at
/// once (the shortest way to read a value never passes through itself), and what was tried in
/// between is not remembered, since it saw the loop cut.
final class UntaggedSession: @unchecked Sendable {  // used by one synchronous decode at a time
  @TaskLocal static var current: UntaggedSession?

  private enum Identity: Hashable {
    case storage(UInt, count: Int, isArray: Bool)
    case scalar(JSON)
  }

  private struct Key: Hashable {
    let layout: ObjectIdentifier
    let identity: Identity
  }

  /// With each outcome, the substitutions its decode recorded: passed on again whenever the
  /// outcome is used again (a case that failed passed on none of them).
  private var outcomes:
    [Key: (json: JSON, outcome: Result<Any, JSON.Error>, substituted: [JSON.Substitution])] = [:]
  /// The trials under way, outermost first, and whether a loop was cut inside each.
  private var underWay: [(key: Key, sawCut: Bool)] = []

  func remember<E>(_ layout: UntaggedEnum<E>, model: String, _ json: JSON) throws -> E {
    let identity: Identity
    switch json {
    case .array(let elements) where elements.isEmpty:
      identity = .scalar(json)  // every empty array shares one storage
    case .object(let object) where object.isEmpty:
      identity = .scalar(json)  // every empty object too
    case .array(let elements):
      identity = .storage(Self.address(elements), count: elements.count, isArray: true)
    case .object(let object):
      identity = .storage(Self.address(object.members), count: object.count, isArray: false)
    default:
      identity = .scalar(json)
    }
    let key = Key(layout: ObjectIdentifier(layout), identity: identity)
    if let known = outcomes[key], let value = try known.outcome.get() as? E {
      Substitutions.pass(known.substituted)
      return value
    }
    if let loop = underWay.lastIndex(where: { $0.key == key }) {
      for position in underWay.indices where position > loop { underWay[position].sawCut = true }
      throw JSON.Error(.typeMismatch, "it holds \(model) at the same value again")
    }
    underWay.append((key, false))
    let outcome: Result<E, JSON.Error>
    var substituted: [JSON.Substitution] = []
    do {
      let value: E
      if Substitutions.isRecording {
        (value, substituted) = try Substitutions.held { try layout.trial(json) }
      } else {
        value = try layout.trial(json)
      }
      outcome = .success(value)
    } catch {
      outcome = .failure(JSON.Error.wrapping(error))
    }
    let sawCut = underWay.removeLast().sawCut
    let remembered: Bool
    switch (identity, outcome) {
    case (.scalar, _): remembered = false
    case (_, .failure(let error)):
      remembered =
        !sawCut && error.kind != .tooDeep(limit: JSON.maximumDepth) && !error.exhaustsStack
    default: remembered = !sawCut
    }
    if remembered { outcomes[key] = (json, outcome.map { $0 as Any }, substituted) }
    Substitutions.pass(substituted)
    return try outcome.get()
  }

  private static func address<Element>(_ elements: [Element]) -> UInt {
    elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
  }
}

/// A path in the external-tag value (outermost first) as a path in the untagged document:
/// without the case key, and with the payload's `_0` (a `single` value) or `_n` (the n-th
/// element of an `array`) as the document has it.
private func untaggedDocumentPath(
  _ components: [JSON.Error.Component], key: String, single: Bool, array: Bool
) -> [JSON.Error.Component] {
  guard components.first == .key(key) else { return components }
  var path = Array(components.dropFirst())
  guard let payloadKey = path.first, case .key(let field) = payloadKey else { return path }
  if single, field == "_0" {
    path.removeFirst()
  } else if array, field.hasPrefix("_"), let position = Int(field.dropFirst()) {
    path[0] = .index(position)
  }
  return path
}
