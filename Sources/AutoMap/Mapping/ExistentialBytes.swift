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
  /// One registered type.
  final class Entry: @unchecked Sendable {
    let type: ObjectIdentifier
    /// Reads the type from the bytes and returns it as `P`; `nil` when it is not a `P` (the
    /// reference then reports it).
    let read: (inout JSONReader, DiscriminatorKey) throws -> P?
    /// Writes an instance through the plan `plan(key:style:)` gives, when it is of exactly
    /// this type; `false` otherwise (nothing written).
    let write: (P, Entry, String, inout JSONWriter) throws -> Bool
    /// The type's encode state: whether its `json` is the default, and its plans.
    let encodeState: ModelEncodeState
    /// The discriminator value it writes; `nil` for the default type outside the table.
    let value: String?
    /// Per key style: its plan with the discriminator first, or `nil` when it has none.
    private let plans: [OnceSlot<TaggedPlan>]

    init(_ type: any JSONCodable.Type, value: String?) {
      self.type = ObjectIdentifier(type)
      self.value = value
      func make<C: JSONCodable>(_: C.Type) -> (
        (inout JSONReader, DiscriminatorKey) throws -> P?,
        (P, Entry, String, inout JSONWriter) throws -> Bool, ModelEncodeState
      ) {
        let codec = OnceSlot<DecodeCodec>()
        let read = { (reader: inout JSONReader, key: DiscriminatorKey) throws -> P? in
          let decoder = codec.get { CodecCache.decoder(for: C.self) }
          // Once its `init(decode:)` is known to be the default, straight through the plan,
          // which watches for a repeated discriminator.
          guard let state = decoder.model, state.isReflected else {
            return try RawValue.produce(C.self) { try decoder.readBytes(&reader, $0) } as? P
          }
          let plan = try state.resolvedPlan(reader.keyStyle)
          return try RawValue.produce(C.self) { try plan.readBytes(&reader, $0, watching: key) }
            as? P
        }
        let isClass = C.self is AnyClass
        let write = {
          (instance: P, entry: Entry, key: String, writer: inout JSONWriter) throws -> Bool in
          // Casts straight from `P` (through `Any`, the `P` box would be boxed again); `is`
          // then `as!` rather than `as?`, which would look up `Optional<C>`'s metadata at
          // each call of this unspecialized code. An instance of a subclass is not this
          // type: it writes its own discriminator.
          guard instance is C, entry.encodeState.isReflected,
            let plan = try entry.plan(key: key, style: writer.keyStyle)
          else { return false }
          let value = instance as! C  // it is one: checked above
          if isClass, ObjectIdentifier(Swift.type(of: value as AnyObject)) != entry.type {
            return false
          }
          try withUnsafePointer(to: value) { try plan.writeBytes(UnsafeRawPointer($0), &writer) }
          return true
        }
        return (read, write, ModelEncoding.state(C.self))
      }
      (read, write, encodeState) = _openExistential(type, do: make)
      plans = JSON.KeyStyle.allCases.map { _ in OnceSlot() }
    }

    /// The plan that writes an instance with its discriminator, for the writer's key style.
    func plan(key: String, style: JSON.KeyStyle?) throws -> EncodePlan? {
      let style = style ?? encodeState.defaultStyle
      return try plans[style.slot].get {
        let plan = try encodeState.resolvedPlan(style)
        guard let value else { return TaggedPlan(plan.whole == nil ? plan : nil) }
        return TaggedPlan(plan.tagged(key: key, value: value))
      }.plan
    }
  }

  final class TaggedPlan: Sendable {
    let plan: EncodePlan?
    init(_ plan: EncodePlan?) { self.plan = plan }
  }

  private let key: String
  private let discriminatorKey: DiscriminatorKey
  private let byValue: [String: Entry]
  private let defaultEntry: Entry?
  /// Every entry once, for finding an instance's type (a few: a linear search).
  private let entries: [Entry]

  init(
    key: String, types: [String: any JSONCodable.Type], defaultType: (any JSONCodable.Type)?,
    values: [ObjectIdentifier: String]
  ) {
    self.key = key
    discriminatorKey = DiscriminatorKey(key)
    var entries: [ObjectIdentifier: Entry] = [:]
    for type in Array(types.values) + (defaultType.map { [$0] } ?? []) {
      let id = ObjectIdentifier(type)
      if entries[id] == nil { entries[id] = Entry(type, value: values[id]) }
    }
    byValue = types.compactMapValues { entries[ObjectIdentifier($0)] }
    defaultEntry = defaultType.flatMap { entries[ObjectIdentifier($0)] }
    self.entries = Array(entries.values)
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
  func write(_ value: P, _ writer: inout JSONWriter, reference: (P) throws -> JSON) throws {
    for entry in entries where try entry.write(value, entry, key, &writer) { return }
    try writer.write(reference(value))
  }
}
