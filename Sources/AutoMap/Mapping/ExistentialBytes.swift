/// The byte paths of one registered protocol type `P` (``JSON/registerPolymorphic(_:discriminator:types:defaultType:)``):
/// a value is read or written where it is, at the cost of its concrete type.
///
/// - Reading finds the object's discriminator in its bytes (``DiscriminatorKey``), then reads
///   the object in place through the chosen type's codec.
/// - Writing writes the discriminator, then the instance's fields, through a plan made once
///   per type and key style: the type's own plan with the discriminator first and any member
///   of its own under that key left out, as the `JSON` path builds it.
///
/// What these cannot decide exactly as the `JSON` path does (an unknown or non-string
/// discriminator, a type with a hand-written `json`, a plan that does not stream) goes
/// through the `JSON` path (`reference`), so errors and edge cases have one implementation.
final class ExistentialBytes<P>: @unchecked Sendable {  // immutable after creation, but for the slots
  /// One registered type's reading side.
  final class Entry: @unchecked Sendable {
    /// Reads the type from the bytes and returns it as `P`; `nil` when it is not a `P` (the
    /// reference then reports it).
    let read: (inout JSONReader, DiscriminatorKey) throws -> P?

    init(_ type: any JSONCodable.Type) {
      func make<C: JSONCodable>(_: C.Type) -> (inout JSONReader, DiscriminatorKey) throws -> P? {
        let codec = OnceSlot<DecodeCodec>()
        return { (reader: inout JSONReader, key: DiscriminatorKey) throws -> P? in
          let decoder = codec.get { CodecCache.decoder(for: C.self) }
          // Once its `init(decode:)` is known to be the default, straight through the plan,
          // which watches for a repeated discriminator.
          guard let state = decoder.model, state.isReflected else {
            // A repeated discriminator: the `JSON` path decides (the last occurrence).
            if try key.isRepeated(in: &reader) { return nil }
            return try RawValue.produce(C.self) { try decoder.readBytes(&reader, $0) } as? P
          }
          return try state.withPlan(reader.keyStyle) { plan in
            try RawValue.produce(C.self) { try plan.readBytes(&reader, $0, watching: key) }
          } as? P
        }
      }
      read = _openExistential(type, do: make)
    }
  }

  private let key: String
  private let discriminatorKey: DiscriminatorKey
  private let byValue: [String: Entry]
  private let defaultEntry: Entry?
  /// Every type's writing side once, for finding an instance's type by identity (a few: a
  /// linear search). Not generic: the metadata of a type nested in this generic class would
  /// be looked up at each use, three lookups per value written.
  private let writers: [TaggedWriter]

  init(
    key: String, types: [String: any JSONCodable.Type], defaultType: (any JSONCodable.Type)?,
    values: [ObjectIdentifier: String]
  ) {
    self.key = key
    discriminatorKey = DiscriminatorKey(key)
    var entries: [ObjectIdentifier: Entry] = [:]
    var writers: [TaggedWriter] = []
    for type in Array(types.values) + (defaultType.map { [$0] } ?? []) {
      let id = ObjectIdentifier(type)
      guard entries[id] == nil else { continue }
      entries[id] = Entry(type)
      writers.append(TaggedWriter(type, value: values[id]))
    }
    byValue = types.compactMapValues { entries[ObjectIdentifier($0)] }
    defaultEntry = defaultType.flatMap { entries[ObjectIdentifier($0)] }
    self.writers = writers
  }

  /// The value at the reader's cursor, as the type its discriminator names.
  func read(_ reader: inout JSONReader, reference: (JSON) throws -> P) throws -> P {
    let entry: Entry?
    switch try discriminatorKey.find(in: &reader) {
    case .absent, .null: entry = defaultEntry
    case .string(let value): entry = byValue[value] ?? defaultEntry
    case .other: entry = nil
    }
    let start = reader.cursor
    if let entry, let value = try entry.read(&reader, discriminatorKey) { return value }
    reader.cursor = start
    let json = try reader.parseValue()
    return try Nesting.within(readerLevels: reader.depth) { try reference(json) }
  }

  /// Writes `value` with its discriminator first.
  ///
  /// The writer is chosen by the instance's dynamic type, exactly: an instance of a
  /// subclass of a registered class is not that class (it writes its own discriminator, or
  /// goes through the reference when its class is not registered).
  func write(_ value: P, _ writer: inout JSONWriter, reference: (P) throws -> JSON) throws {
    let instance = value as Any
    let type = ObjectIdentifier(Swift.type(of: instance))
    for candidate in writers where candidate.type == type {
      guard let plan = try candidate.plan(key: key, style: writer.keyStyle) else { break }
      return try candidate.write(instance, plan, &writer)
    }
    try writer.write(reference(value))
  }
}

/// What writes one registered type's instances with their discriminator first: the plan
/// per key style (made on first use), and the step from an instance to its fields.
final class TaggedWriter: @unchecked Sendable {  // immutable after creation, but for the slots
  let type: ObjectIdentifier
  /// Writes an instance (given as `Any`, of exactly this type) through `plan`.
  let write: (Any, EncodePlan, inout JSONWriter) throws -> Void
  /// The type's encode state: whether its `json` is the default, and its plans.
  private let encodeState: ModelEncodeState
  /// The discriminator value it writes; `nil` for the default type outside the table.
  private let value: String?
  /// Per key style: its plan with the discriminator first, or `nil` when it has none.
  private let plans: [OnceSlot<TaggedPlan>]

  init(_ type: any JSONCodable.Type, value: String?) {
    self.type = ObjectIdentifier(type)
    self.value = value
    func make<C: JSONCodable>(_: C.Type) -> (
      (Any, EncodePlan, inout JSONWriter) throws -> Void, ModelEncodeState
    ) {
      let write = { (instance: Any, plan: EncodePlan, writer: inout JSONWriter) throws in
        // The caller chose this writer by the instance's dynamic type: the cast holds.
        let value = instance as! C
        try withUnsafePointer(to: value) { try plan.writeBytes(UnsafeRawPointer($0), &writer) }
      }
      return (write, ModelEncoding.state(C.self))
    }
    (write, encodeState) = _openExistential(type, do: make)
    plans = JSON.KeyStyle.allCases.map { _ in OnceSlot() }
  }

  /// The plan that writes an instance with its discriminator under `key`, for the writer's
  /// key style; `nil` when the type's own `json` or a plan that does not stream must write it.
  func plan(key: String, style: JSON.KeyStyle?) throws -> EncodePlan? {
    guard encodeState.isReflected else { return nil }
    let style = style ?? encodeState.defaultStyle
    return try plans[style.slot].get {
      let plan = try encodeState.resolvedPlan(style)
      guard let value else { return TaggedPlan(plan.whole == nil ? plan : nil) }
      return TaggedPlan(plan.tagged(key: key, value: value))
    }.plan
  }

  final class TaggedPlan: Sendable {
    let plan: EncodePlan?
    init(_ plan: EncodePlan?) { self.plan = plan }
  }
}
