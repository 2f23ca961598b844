import Foundation

/// A model's decode plan, built once per type and key style (``ModelDecoding``) and then only
/// read, by any number of threads.
///
/// Memory invariants, for the unsafe writes here and in `DecodePlan+Bytes.swift`:
/// - `offset`s come from the runtime's field enumeration and `codec`s from each field's
///   declared type, so a field's memory is exactly a value of the codec's type.
/// - `memberwise`: the destination starts uninitialized; `DecodeProgress.initialized`
///   records which fields hold values, and on failure exactly those are destroyed.
/// - `defaultStruct`/`object`: the instance is complete from `init()` on; a field is replaced
///   by decoding into a temporary first, then destroying the old value and moving the new one
///   in, so a failure never leaves a hole. On failure the whole instance is destroyed.
/// - Updating: new values are staged in temporaries and moved in only when all decoded.
final class DecodePlan: @unchecked Sendable {  // immutable after creation
  let modelName: String
  let kind: InstanceKind
  let fields: [DecodeField]
  /// Memberwise fields that are `.ignore`d: initialized with `nil` or their fallback.
  let ignoredFields: [IgnoredField]
  /// Destroys a whole instance at the destination.
  let destroyModel: (UnsafeMutableRawPointer) -> Void
  /// Calls the model's `didDecode()` on the instance at the destination.
  let didDecode: (UnsafeMutableRawPointer) throws -> Void
  /// Keys match whatever their ASCII case.
  let caseInsensitive: Bool
  /// Every field reads one distinct key: the byte path can match keys as they stream past.
  /// Otherwise (paths, flattening, alternatives) the object is parsed to `JSON` first.
  let streams: Bool
  /// When it does not stream: where each field's value is, for the byte path
  /// (``DecodeRoutes``); `nil` when keys match in any case (the `JSON` path decides which of
  /// several spellings counts).
  let routes: DecodeRoutes?
  /// `routes`, read by the byte path with no reference counting.
  let unmanagedRoutes: Unmanaged<DecodeRoutes>?
  /// `routes` with flattened models' keys, made at the first read (``expanded(_:_:)``).
  let expandedRoutes = OnceSlot<DecodeRoutes>()
  /// `fields`, in memory the plan owns, so the byte loop borrows each field in place.
  let table: UnsafeMutableBufferPointer<DecodeField>
  /// What the byte loop reads of each field, its key included, without reference counting.
  let steps: UnsafeMutableBufferPointer<DecodeStep>
  /// The bytes of every field's key, one after the other (each step points into them).
  let keyStart: UnsafeMutablePointer<UInt8>
  /// Set for models read as a whole rather than field by field (enums with payloads, through
  /// their synthesized `Codable`): reads the value from `JSON` into the destination. It counts
  /// the nesting levels (``Nesting``) its document has itself, as only the enum knows them (an
  /// untagged value is its payload; an internal-tag one, one object): the plan counts none.
  let whole: ((JSON, UnsafeMutableRawPointer) throws -> Void)?
  /// The same from bytes, for `whole` models that read bytes directly.
  let wholeBytes: ((inout JSONReader, UnsafeMutableRawPointer) throws -> Void)?
  /// Whether ``wholeBytes`` is set: tested on every value without copying the closure.
  let isWhole: Bool

  init(
    modelName: String, kind: InstanceKind, fields: [DecodeField], ignoredFields: [IgnoredField],
    caseInsensitive: Bool, destroyModel: @escaping (UnsafeMutableRawPointer) -> Void,
    didDecode: @escaping (UnsafeMutableRawPointer) throws -> Void,
    whole: ((JSON, UnsafeMutableRawPointer) throws -> Void)? = nil,
    wholeBytes: ((inout JSONReader, UnsafeMutableRawPointer) throws -> Void)? = nil
  ) {
    self.whole = whole
    self.wholeBytes = wholeBytes
    isWhole = wholeBytes != nil
    self.modelName = modelName
    self.kind = kind
    self.fields = fields
    self.ignoredFields = ignoredFields
    self.caseInsensitive = caseInsensitive
    self.destroyModel = destroyModel
    self.didDecode = didDecode
    let keys = fields.compactMap(\.key)
    let distinct = Set(keys.map { caseInsensitive ? KeyMatching.folded($0) : $0 })
    streams =
      keys.count == fields.count && distinct.count == keys.count
      && fields.allSatisfy { $0.alternativeIndex == nil }
    routes = streams || caseInsensitive || whole != nil ? nil : DecodeRoutes(fields)
    unmanagedRoutes = routes.map { Unmanaged.passUnretained($0) }
    table = .allocate(capacity: fields.count)
    _ = table.initialize(from: fields)
    let allKeys = keys.flatMap { $0 }
    keyStart = .allocate(capacity: max(allKeys.count, 1))
    keyStart.initialize(from: allKeys, count: allKeys.count)
    var made: [DecodeStep] = []
    var offset = 0
    for field in fields {
      made.append(DecodeStep(field, key: keyStart + offset))
      offset += field.key?.count ?? 0
    }
    steps = .allocate(capacity: fields.count)
    _ = steps.initialize(from: made)
  }

  deinit {
    table.deinitialize().deallocate()
    steps.deinitialize().deallocate()
    keyStart.deallocate()
  }

  var isMemberwise: Bool {
    if case .memberwise = kind { return true }
    return false
  }

  func newProgress() -> DecodeProgress {
    DecodeProgress(fieldCount: fields.count, memberwise: isMemberwise)
  }

  // MARK: Instances

  /// Starts an instance at `destination` and returns the address fields are offset from.
  func begin(_ destination: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    switch kind {
    case .memberwise:
      for ignored in ignoredFields { ignored.initialize(destination + ignored.offset) }
      return destination
    case .defaultStruct(let make):
      make(destination)
      return destination
    case .object(let make):
      make(destination)
      // The destination holds the object reference; fields live inside the object.
      return RawValue.objectBase(destination)
    }
  }

  /// Undoes `begin` and what fields were written, after a failure.
  func abandon(_ destination: UnsafeMutableRawPointer, _ progress: DecodeProgress) {
    guard isMemberwise else {
      destroyModel(destination)
      return
    }
    for ignored in ignoredFields { ignored.destroy?(destination + ignored.offset) }
    for (position, field) in fields.enumerated() where progress.initialized.contains(position) {
      field.codec.destroy(destination + field.offset)
    }
  }

  /// Runs the model's validation hook; its error fails the decode at this model's path.
  @inline(__always)
  func validate(_ destination: UnsafeMutableRawPointer) throws {
    do {
      try didDecode(destination)
    } catch let error as JSON.Error {
      throw error
    } catch {
      throw JSON.Error(
        .custom, "\(modelName).didDecode() failed: \(error)", underlying: SendableBox(error))
    }
  }

  /// Writes a field's new value, produced by `produce` into uninitialized memory.
  @inline(__always)
  func write(
    _ position: Int, _ base: UnsafeMutableRawPointer, _ progress: inout DecodeProgress,
    _ produce: (UnsafeMutableRawPointer) throws -> Void
  ) throws {
    let step = steps[position]
    let target = base + step.offset
    if progress.memberwise && !progress.initialized.contains(position) {
      try produce(target)
      progress.initialized.insert(position)
      return
    }
    let codec = step.codec
    let temporary = RawValue.allocate(size: codec.size, alignment: codec.alignment)
    do {
      try produce(temporary)
    } catch {
      temporary.deallocate()
      throw error
    }
    if progress.staged != nil {
      progress.staged?.append((position, temporary))
      return
    }
    codec.destroy(target)
    RawValue.moveBitwise(from: temporary, to: target, size: codec.size)
    temporary.deallocate()
  }

  // MARK: Absent values

  /// What the byte path passes for a key the object did not have.
  static let absent = JSON.missing(JSON.Error(.missingValue, "absent"))

  /// The key is absent (`found` is `.missing`) or `null`: `nil`, the fallback, the declared
  /// default, or an error.
  func resolveAbsent(
    _ position: Int, _ base: UnsafeMutableRawPointer, _ progress: inout DecodeProgress,
    found: JSON
  ) throws {
    let step = steps[position]
    if step.absentStoresNil {
      // The usual case (an optional with no default), without the field's reference count.
      if !progress.memberwise && (found.isMissing || !step.isOptional) { return }
      return try write(position, base, &progress) { step.storeNil($0) }
    }
    let field = table[position]
    if let fallback = field.fallback {
      Substitutions.record(
        field.options.hasDefaultValue ? .defaultValue : .nonNil,
        reason: Substitutions.reason(found), replacement: field.replacement)
      return try write(position, base, &progress) { fallback($0) }
    }
    // A complete instance keeps its declared default for an absent key; an explicit null
    // makes an optional nil.
    let keepsDefault = !progress.memberwise && (found.isMissing || !field.isOptional)
    if keepsDefault { return }
    if let storeNil = field.codec.storeNil {
      return try write(position, base, &progress) { storeNil($0) }
    }
    guard found.isMissing else {
      throw JSON.Error(
        .missingValue, "expected \(field.codec.typeName) for \(modelName).\(field.name), found null"
      ).prefixed(field.index)
    }
    if case .missing(let error) = found, error.kind == .typeMismatch {
      throw error  // a path ran through something that is not an object or array
    }
    throw JSON.Error(
      .missingValue,
      "missing key \(JSON.string(field.index.singleKey ?? field.index.description)) for "
        + "\(modelName).\(field.name) (\(field.codec.typeName))"
    ).prefixed(field.index)
  }

  // MARK: From JSON

  /// Reads the model from a `JSON` object into `destination`.
  func readJSON(_ json: JSON, _ destination: UnsafeMutableRawPointer) throws {
    if Reporting.mayBeActive, Reporting.isActive { return try readReporting(json, destination) }
    guard case .object(let object) = json else {
      throw JSON.Error.mismatch(expected: modelName, found: json)
    }
    if streams && !caseInsensitive { return try readMembers(object, destination) }
    var progress = newProgress()
    let base = begin(destination)
    do {
      var hint = 0  // members usually come in declaration order: look after the last match
      for position in fields.indices {
        try decodeField(position, in: json, hint: &hint, base, &progress)
      }
      try validate(destination)
    } catch {
      abandon(destination, progress)
      throw error
    }
  }

  /// ``readJSON(_:_:)`` for a call that asks for a report (see ``Reporting``): each field is
  /// read at its place in the path while substitutions are recorded, and when the call
  /// collects every problem, a field that fails does not stop the others.
  private func readReporting(_ json: JSON, _ destination: UnsafeMutableRawPointer) throws {
    guard case .object = json else { throw JSON.Error.mismatch(expected: modelName, found: json) }
    let recording = Substitutions.isRecording
    var progress = newProgress()
    let base = begin(destination)
    var problems: ProblemList?
    do {
      var hint = 0
      for position in fields.indices {
        do {
          try Substitutions.within(recording ? fields[position].index.components : []) {
            try decodeField(position, in: json, hint: &hint, base, &progress)
          }
        } catch {
          try collect(error, into: &problems)
        }
      }
      if let problems { throw problems.error }
      try validate(destination)
    } catch {
      abandon(destination, progress)
      throw error
    }
  }

  /// After a field failed with `error`: rethrows it, unless the call collects every problem
  /// (``JSON/Configuration/collectsAllErrors``) and the decode can go on, in which case the
  /// error joins `problems` and the next field is read. Field errors carry their paths.
  private func collect(_ error: any Swift.Error, into problems: inout ProblemList?) throws {
    let wrapped = JSON.Error.wrapping(error)
    if problems == nil {
      guard Problems.goOn(after: wrapped) else { throw error }
      problems = ProblemList()
    }
    problems?.add(wrapped)
    if let problems, problems.isFinal { throw problems.error }
  }

  /// The JSON at a field's index in `object`, trying its alternative when that yields no
  /// usable value; `.missing` when absent. `levels`: how many levels from `object` it is
  /// (``Nesting/placed(_:encoding:_:)``); `entered`: the most levels either path stepped into
  /// on the way, found or not, as the byte path opens them.
  func lookup(_ object: JSON, _ field: DecodeField, hint: inout Int)
    -> (value: JSON, levels: Int, entered: Int)
  {
    var value: JSON
    var levels = 0
    if caseInsensitive, let key = field.key, let members = object.object?.members {
      // The last member whose key matches in any ASCII case, as the byte path reads them.
      value = members.last { KeyMatching.equalFoldingASCII($0.key.utf8, key) }?.value ?? Self.absent
    } else if let key = field.keyString, case .object(let members) = object {
      if let position = members.index(forKey: key, near: hint) {
        value = members.members[position].value
        hint = position + 1
      } else {
        value = Self.absent
      }
    } else {
      value = field.index.isEmpty ? object : object[field.index]
      levels = field.index.isEmpty ? -1 : object.levelsEntered(along: field.index)
    }
    var entered = max(levels, 0)
    if value.isNullOrMissing, let alternative = field.alternativeIndex {
      let other = object[alternative]
      let alternativeLevels = alternative.isEmpty ? -1 : object.levelsEntered(along: alternative)
      entered = max(entered, alternativeLevels)
      if !other.isMissing {
        Substitutions.record(
          .alternativeIndex, reason: Substitutions.reason(value),
          replacement: alternative.singleKey.map { JSON.string($0).description }
            ?? alternative.description)
        value = other
        levels = alternativeLevels
      }
    }
    return (value, levels, entered)
  }

  /// Fills one field from `object` (``lookup(_:_:hint:)``), counting the levels between.
  /// `keepsAbsent`: a value the object does not have leaves the field as it is (an update).
  @inline(__always)
  func decodeField(
    _ position: Int, in object: JSON, hint: inout Int, _ base: UnsafeMutableRawPointer,
    _ progress: inout DecodeProgress, keepsAbsent: Bool = false
  ) throws {
    let (value, levels, entered) = lookup(object, fields[position], hint: &hint)
    try Nesting.checkRoom(entered, encoding: false)
    if keepsAbsent && value.isMissing && !fields[position].index.isEmpty { return }
    try Nesting.placed(levels, encoding: false) {
      try decodeField(position, from: value, base, &progress)
    }
  }

  /// Fills one field from the JSON found at its index (`.missing` when absent).
  func decodeField(
    _ position: Int, from found: JSON, _ base: UnsafeMutableRawPointer,
    _ progress: inout DecodeProgress
  ) throws {
    let field = table[position]
    if found.isMissing && !field.index.isEmpty {
      return try resolveAbsent(position, base, &progress, found: found)
    }
    var value = field.lossless?.convert(found) ?? found
    if field.options.emptyAsNil, case .string("") = value { value = .null }
    if case .null = value, !field.isOptional, field.transform == nil {
      return try resolveAbsent(position, base, &progress, found: value)
    }
    do {
      // What a transform takes is walked by no decoder: its levels are counted here.
      if field.transform != nil { try Nesting.checkFits(value, encoding: false) }
      if let transform = field.transform, let converted = try transformed(field, transform, value) {
        try write(position, base, &progress) { target in
          guard field.codec.store(converted, target) else {
            throw JSON.Error(
              .invalidModel,
              "the transform of \(modelName).\(field.name) returned \(typeName(type(of: converted))),"
                + " the property is \(field.codec.typeName)")
          }
        }
        return
      }
      if case .null = value, !field.isOptional {
        throw JSON.Error.mismatch(expected: field.codec.typeName, found: value)
      }
      if field.options.lossy, let lossy = field.codec.lossyReadJSON {
        return try write(position, base, &progress) { try lossy(value, $0) }
      }
      do {
        try write(position, base, &progress) { try field.codec.readJSON(value, $0) }
      } catch {
        // A lossy optional whose value does not map is nil.
        let problem = JSON.Error.wrapping(error)
        guard field.options.lossy, let storeNil = field.codec.storeNil, problem.isRecoverable
        else { throw error }
        Substitutions.record(
          .lossyNil, problem: problem, replacement: "nil")
        try write(position, base, &progress) { storeNil($0) }
      }
    } catch {
      let error = JSON.Error.wrapping(error)
      guard let fallback = field.fallback, error.isRecoverable else {
        throw field.index.isEmpty ? error : error.prefixed(field.index)
      }
      Substitutions.record(
        field.options.hasDefaultValue ? .defaultValue : .nonNil, problem: error,
        replacement: field.replacement)
      try write(position, base, &progress) { fallback($0) }
    }
  }

  /// What `transform` makes of `value` for `field`. `null` for an optional property is `nil`
  /// when the transform makes nothing of it (it throws, as a `DateTransform` or a transform
  /// from a non-optional type does, or returns `nil`): encoding writes `nil` as `null`, so
  /// the value must read back. A transform that reads `null` (from `String?`, say) decides.
  private func transformed(_ field: DecodeField, _ transform: any Transform, _ value: JSON)
    throws -> Any?
  {
    guard case .null = value, field.isOptional else {
      return try transform.decodeValue(from: value)
    }
    return try? transform.decodeValue(from: value)
  }

  // MARK: Updating

  /// Replaces the fields whose keys `json` has, in the instance whose fields start at `base`;
  /// the others keep their values. All or nothing: values are staged until every one
  /// decoded, then swapped in; when `validate` (the model's `didDecode()`) throws, the old
  /// values are swapped back.
  func update(_ json: JSON, _ base: UnsafeMutableRawPointer, validate: () throws -> Void) throws {
    guard case .object = json else { throw JSON.Error.mismatch(expected: modelName, found: json) }
    var progress = DecodeProgress(fieldCount: fields.count, memberwise: false, staging: true)
    func release(_ staged: [(position: Int, value: UnsafeMutableRawPointer)]) {
      for (position, value) in staged {
        fields[position].codec.destroy(value)
        value.deallocate()
      }
    }
    let recording = Substitutions.isRecording
    var problems: ProblemList?
    do {
      for position in fields.indices {
        do {
          try Substitutions.within(recording ? fields[position].index.components : []) {
            var hint = 0
            try decodeField(position, in: json, hint: &hint, base, &progress, keepsAbsent: true)
          }
        } catch {
          try collect(error, into: &problems)  // as decoding does, with collectsAllErrors
        }
      }
      if let problems { throw problems.error }
    } catch {
      release(progress.staged ?? [])
      throw error
    }
    let staged = progress.staged ?? []
    func swapStaged() {
      for (position, value) in staged {
        let field = fields[position]
        RawValue.swapBitwise(base + field.offset, value, size: field.codec.size)
      }
    }
    swapStaged()  // the new values are in place, the old ones staged
    do {
      try validate()
    } catch {
      swapStaged()
      release(staged)
      throw error
    }
    release(staged)
  }
}

extension JSON.Error {
  /// Whether a fallback may stand in: anything but malformed text, unusable models, and
  /// nesting too deep for the bound or for the thread's stack.
  var isRecoverable: Bool {
    if exhaustsStack { return false }
    switch kind {
    case .malformed, .tooDeep, .numberOutOfRange, .invalidModel: return false
    default: return true
    }
  }
}
