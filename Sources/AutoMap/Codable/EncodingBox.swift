/// Where ``JSONValueEncoder`` collects one value while `Encodable` code writes it:
/// containers outlive the calls that make them, so a value under construction is a
/// reference, turned into `JSON` when the whole value is written.
final class EncodingBox {
  enum Kind { case empty, value, object, array }

  private(set) var kind = Kind.empty
  private var value = JSON.null
  /// Object members in the order they were first written, and where each key is.
  private var members: [(key: String, box: EncodingBox)] = []
  private var positions: [String: Int] = [:]
  private(set) var elements: [EncodingBox] = []
  /// Set when one value was asked for two kinds of container.
  private var conflict: JSON.Error?
  /// How many of the document's containers this box is inside, those around the root's value
  /// included (``Nesting``'s count where the root was made): a container here is level
  /// `depth + 1`.
  let depth: Int
  /// Set on a box that nothing keeps, made for a container nested past the depth limit (an
  /// `encode(to:)` that nests containers in a loop is not bounded by ``Nesting``): such a
  /// chain stops growing there, instead of growing until dropping it overflows the stack.
  /// The value fails anyway, at its box just past the limit.
  let isDetached: Bool

  init(depth: Int, isDetached: Bool = false) {
    self.depth = depth
    self.isDetached = isDetached
  }

  /// Whether the boxes of values inside this one are detached (see ``isDetached``).
  private var isPastLimit: Bool { depth > JSON.maximumDepth }

  /// Makes this box an object or an array; asking again for the same kind keeps what it has.
  func become(_ kind: Kind, at path: CodingPath) {
    guard self.kind != kind else { return }
    if self.kind != .empty { noteConflict(kind, at: path) }
    self.kind = kind
    members = []
    positions = [:]
    elements = []
  }

  func set(_ json: JSON, at path: CodingPath) {
    if kind == .object || kind == .array { noteConflict(.value, at: path) }
    kind = .value
    value = json
  }

  private func noteConflict(_ requested: Kind, at path: CodingPath) {
    guard conflict == nil else { return }
    conflict = path.locate(
      JSON.Error(
        .unencodable,
        "encode(to:) asked for a \(requested) container after writing a \(kind) here"))
  }

  /// The box of member `key`: a new one when `fresh` (writing a value replaces the old
  /// one), otherwise the existing one (nested containers share it, as in `JSONEncoder`).
  func member(_ key: String, fresh: Bool) -> EncodingBox {
    guard !isPastLimit else { return EncodingBox(depth: depth, isDetached: true) }
    if let position = positions[key] {
      if fresh { members[position].box = EncodingBox(depth: depth + 1) }
      return members[position].box
    }
    let box = EncodingBox(depth: depth + 1)
    positions[key] = members.count
    members.append((key, box))
    return box
  }

  func appendElement() -> EncodingBox {
    guard !isPastLimit else { return EncodingBox(depth: depth, isDetached: true) }
    let box = EncodingBox(depth: depth + 1)
    elements.append(box)
    return box
  }

  /// The finished value. A value that wrote nothing is an empty object, as in `JSONEncoder`.
  func json() throws -> JSON {
    if let conflict { throw conflict }
    guard kind == .value || depth < JSON.maximumDepth else {
      throw JSON.Error(.unencodable, "nesting deeper than \(JSON.maximumDepth) containers")
    }
    try Nesting.checkLevelStack(encoding: true)
    switch kind {
    case .empty: return .object(JSON.Object())
    case .value: return value
    case .array: return .array(try elements.map { try $0.json() })
    case .object:
      var object = JSON.Object()
      object.reserveCapacity(members.count)
      for member in members { object.append(member.key, try member.box.json()) }
      return .object(object)
    }
  }
}
