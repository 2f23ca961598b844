/// What a JSON Patch may make of a document: nothing deeper than the parser and the writer
/// accept, and nothing that grows faster than the patch does.
extension JSON {
  /// Throws when `value`, placed at `path`, would nest deeper than ``maximumDepth``.
  static func checkDepth(of value: JSON, at path: Index) throws {
    let room = maximumDepth - path.tokens.count
    try checkDepth(levels: room < 0 ? 0 : Nesting.levels(of: value, upTo: room), at: path)
  }

  /// Throws when a value of `levels` levels, placed at `path`, would nest deeper than
  /// ``maximumDepth``.
  static func checkDepth(levels: Int, at path: Index) throws {
    guard path.tokens.count + levels <= maximumDepth else {
      throw JSON.Error(
        .tooDeep(limit: maximumDepth),
        "the result would nest deeper than \(maximumDepth) arrays and objects",
        path: path.steps.map(\.component))
    }
  }

  /// The size of `value` as a patch's allowance counts it (one for each value, and the UTF-8
  /// bytes of its strings, keys and numbers kept as text), and its levels; nil when the size
  /// is more than `limit`. Measured without recursion and only as far as the limit: a value
  /// whose containers share their storage (a copy inside a copy) may be larger than memory.
  static func patchSize(of value: JSON, upTo limit: Int) -> (size: Int, levels: Int)? {
    var size = 0
    var levels = 0
    var pending: [(value: JSON, depth: Int)] = [(value, 0)]
    while let (next, depth) = pending.popLast() {
      var own = 1
      switch next {
      case .string(let string): own += string.utf8.count
      case .number(let number):
        if case .text(let text) = number.storage { own += text.text.utf8.count }
      case .array(let elements): own += elements.count  // at least one for each, before it is walked
      case .object(let object):
        own += object.count
        for member in object.members { own += member.key.utf8.count }
      default: break
      }
      guard own <= limit - size else { return nil }
      size += own
      switch next {
      case .array(let elements):
        levels = Swift.max(levels, depth + 1)
        size -= elements.count  // each counts itself when it is walked
        pending.append(contentsOf: elements.lazy.map { ($0, depth + 1) })
      case .object(let object):
        levels = Swift.max(levels, depth + 1)
        size -= object.count
        pending.append(contentsOf: object.members.lazy.map { ($0.value, depth + 1) })
      default: break
      }
    }
    return (size, levels)
  }
}

/// What one patch's copies may duplicate, and what its moves to a deeper place may walk to
/// check their depth, each in all: as much as the document and the values the patch carries
/// hold together (in ``JSON/patchSize(of:upTo:)``'s units), and at least ``floor``. So a
/// patch at most doubles what it is given, plus the floor, instead of doubling the document
/// with each copy of copies, and checking depth costs no more than reading what was given;
/// a small document can still take a template copied many times.
struct PatchAllowance {
  /// The allowance, however small the document: 65 536.
  static var floor: Int { 1 << 16 }

  private let document: JSON
  private let patch: JSON.Patch
  private var copied = 0
  private var walked = 0
  /// Measured on first use: a patch with no copy and no deeper move measures nothing.
  private var measured: Int?

  init(document: JSON, patch: JSON.Patch) {
    self.document = document
    self.patch = patch
  }

  /// The allowance, measured on first use.
  private mutating func limit() -> Int {
    if let measured { return measured }
    var limit = JSON.patchSize(of: document, upTo: .max)?.size ?? .max
    for operation in patch.operations {
      switch operation {
      case .add(_, let value), .replace(_, let value):
        let size = JSON.patchSize(of: value, upTo: .max)?.size ?? .max
        limit = size > .max - limit ? .max : limit + size
      default: break
      }
    }
    measured = Swift.max(limit, Self.floor)
    return measured ?? limit
  }

  /// Checks a `copy` of `value` to `path`: within the allowance, with the copies before it,
  /// and within the depth bound.
  mutating func copy(_ value: JSON, to path: JSON.Index) throws {
    try spend(
      value, at: path, counted: \.copied, "copies",
      why: "copies of copies would double the document with each operation")
  }

  /// Checks a `move` of `value` to `path`, deeper than where it was: its depth, walked within
  /// the allowance, with the deeper moves before it.
  mutating func move(_ value: JSON, deeperTo path: JSON.Index) throws {
    try spend(
      value, at: path, counted: \.walked, "moves to deeper places",
      why: "each is walked to check its depth")
  }

  /// Measures `value`, going to `path`, within what is left of the allowance after `counted`,
  /// adds its size there, and checks its depth.
  private mutating func spend(
    _ value: JSON, at path: JSON.Index, counted: WritableKeyPath<Self, Int>, _ what: String,
    why: String
  ) throws {
    let limit = limit()
    guard let (size, levels) = JSON.patchSize(of: value, upTo: limit - self[keyPath: counted])
    else {
      throw JSON.Error(
        .unencodable,
        "the patch's \(what) would come to more than \(limit) (values, and bytes of text): as"
          + " much as the document and the patch hold together, or 65 536 (\(why))",
        path: path.steps.map(\.component))
    }
    self[keyPath: counted] += size
    try JSON.checkDepth(levels: levels, at: path)
  }
}
