/// What a JSON Patch may make of a document: nothing deeper than the parser and the writer
/// accept, and nothing that grows faster than the patch does.
extension JSON {
  /// Throws when `value`, placed at `path`, would nest deeper than ``maximumDepth``.
  static func checkDepth(of value: JSON, at path: Index) throws {
    let room = maximumDepth - path.tokens.count
    guard room >= 0, Nesting.levels(of: value, upTo: room) <= room else {
      throw JSON.Error(
        .tooDeep(limit: maximumDepth),
        "the result would nest deeper than \(maximumDepth) arrays and objects",
        path: path.steps.map(\.component))
    }
  }

  /// How many values the `copy` operations of `patch` may duplicate in `document`, all
  /// together: as many as the document and the values the patch carries hold, and at least
  /// ``copyFloor``. So a patch at most doubles what it is given (plus the floor), instead of
  /// doubling the document with each copy of copies, while a small document can still take a
  /// template copied many times.
  static func copyLimit(_ document: JSON, _ patch: Patch) -> Int {
    var limit = valueCount(of: document, upTo: .max) ?? .max
    for operation in patch.operations {
      switch operation {
      case .add(_, let value), .replace(_, let value):
        let (sum, overflow) = limit.addingReportingOverflow(
          valueCount(of: value, upTo: .max) ?? .max)
        limit = overflow ? .max : sum
      default: break
      }
    }
    return Swift.max(limit, copyFloor)
  }

  /// The values a patch's copies may always duplicate, however small the document.
  static var copyFloor: Int { 1 << 16 }

  /// Takes the values `copied` holds from `allowance`, what the patch's copies may still
  /// duplicate of `limit` (``copyLimit(_:_:)``); throws when they are more.
  static func spendCopy(of copied: JSON, from allowance: inout Int, limit: Int, to path: Index)
    throws
  {
    guard let count = valueCount(of: copied, upTo: allowance) else {
      throw JSON.Error(
        .unencodable,
        "the patch's copies would hold more than \(limit) values, more than the document and the"
          + " patch hold together (copies of copies would double the document with each operation)",
        path: path.steps.map(\.component))
    }
    allowance -= count
  }

  /// The values `value` holds, itself included, or `nil` when that is more than `limit`.
  /// Counted without recursion and only as far as the limit: a value whose containers share
  /// their storage (a copy inside a copy) may hold more values than memory could.
  static func valueCount(of value: JSON, upTo limit: Int) -> Int? {
    var count = 1
    var pending = [value]
    while let next = pending.popLast() {
      let added: Int
      switch next {
      case .array(let elements): added = elements.count
      case .object(let object): added = object.count
      default: continue
      }
      guard count <= limit - added else { return nil }
      count += added
      switch next {
      case .array(let elements): pending.append(contentsOf: elements.lazy.filter(\.isContainer))
      case .object(let object):
        pending.append(contentsOf: object.members.lazy.map(\.value).filter(\.isContainer))
      default: break
      }
    }
    return count <= limit ? count : nil
  }
}

extension JSON {
  /// Whether this is an array or an object.
  fileprivate var isContainer: Bool {
    switch self {
    case .array, .object: true
    default: false
    }
  }
}

extension JSON.Patch.Operation {
  /// Whether this is a `copy`.
  var isCopy: Bool {
    if case .copy = self { true } else { false }
  }
}
