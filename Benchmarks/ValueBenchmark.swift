import AutoMap
import Foundation

/// The operations on `JSON` values themselves, on each document: `==`, hashing, JSON Patch
/// (RFC 6902) and JSON Merge Patch (RFC 7386).
///
/// - `==` is measured against Foundation's own comparison of two parsed documents,
///   `NSDictionary.isEqual(_:)` (or `NSArray`'s) on what `JSONSerialization` read. Both sides
///   compare two separate parses, so that no storage is shared.
/// - Foundation has no hash of a whole document (an `NSDictionary`'s hash is its count) and
///   no JSON Patch: those rows are measured against AutoMap's own parse of the same document,
///   the parse's time over theirs (2.00: the operation costs half a parse).
///
/// The patches turn each document into an edited copy ("Editor"): every fifth string gains a
/// character, every seventh number grows by one, every eleventh object member goes, and each
/// object that lost one gains another. Each patch must turn the document into the copy, and
/// both sides' `==` must say what they compare is equal, before anything is timed.
enum ValueBenchmark {
  static func run(documents: [(name: String, data: Data)], rounds: Int, minimum: Double) throws {
    guard !documents.isEmpty else { return }
    print("\nJSON values: `==` against Foundation, the rest against AutoMap's parse of the same")
    print("document (its time over theirs):")
    print("| document | operation | time | AutoMap | against |")
    print("| --- | --- | --- | --- | --- |")
    for (name, data) in documents {
      for row in try rows(data) {
        let times = try Timing.compare(
          [Measurement(name: "AutoMap", run: row.ours), row.reference], rounds: rounds,
          minimum: minimum)
        let megabytes = Double(data.count) / 1e6
        print(
          "| \(name) | \(row.name) | \(String(format: "%.2f ms", times[0] * 1e3)) | "
            + "\(String(format: "%.1f MB/s", megabytes / times[0])) | "
            + "\(String(format: "%.2fx", times[1] / times[0])) \(row.reference.name) |")
      }
    }
  }

  struct Row {
    let name: String
    let ours: () throws -> Void
    /// Foundation's counterpart, or AutoMap's parse.
    let reference: Measurement
  }

  static func rows(_ data: Data) throws -> [Row] {
    // Two parses on each side: `==` on values that share storage would not look inside.
    let (first, second) = (try JSON(jsonData: data), try JSON(jsonData: data))
    let theirs = try (foundationObject(data), foundationObject(data))
    guard first == second, theirs.0.isEqual(theirs.1) else {
      throw JSON.Error.custom("a document does not equal its second parse")
    }
    var editor = Editor()
    let edited = editor.edit(first)
    let patch = JSON.patch(from: first, to: edited)
    guard try first.applying(patch) == edited, first != edited else {
      throw JSON.Error.custom("the JSON Patch does not give the edited document")
    }
    let parse = Measurement(name: "parse") { _ = try JSON(jsonData: data) }
    var rows = [
      Row(
        name: "`==`, two parses", ours: { _ = first == second },
        reference: Measurement(name: "Foundation") { _ = theirs.0.isEqual(theirs.1) }),
      Row(
        name: "hash",
        ours: {
          var hasher = Hasher()
          first.hash(into: &hasher)
          _ = hasher.finalize()
        }, reference: parse),
      Row(
        name: "JSON Patch, diff (\(patch.operations.count) operations)",
        ours: { _ = JSON.patch(from: first, to: edited) }, reference: parse),
      Row(name: "JSON Patch, apply", ours: { _ = try first.applying(patch) }, reference: parse),
    ]
    // A merge patch takes arrays whole, so where a document's edits sit in arrays it is those
    // arrays, found and set in no time: measured only where the patch holds none (it then
    // works member by member). It cannot set a member to `null` either.
    if let mergePatch = try? JSON.mergePatch(from: first, to: edited), !holdsArray(mergePatch) {
      guard first.merging(patch: mergePatch) == edited else {
        throw JSON.Error.custom("the merge patch does not give the edited document")
      }
      rows += [
        Row(
          name: "merge patch, diff", ours: { _ = try JSON.mergePatch(from: first, to: edited) },
          reference: parse),
        Row(
          name: "merge patch, apply", ours: { _ = first.merging(patch: mergePatch) },
          reference: parse),
      ]
    }
    return rows
  }

  /// Whether `value` is or holds an array (the benchmark's documents nest a few levels).
  private static func holdsArray(_ value: JSON) -> Bool {
    switch value {
    case .array: return true
    case .object(let object): return object.values.contains(where: holdsArray)
    default: return false
    }
  }

  /// What `JSONSerialization` reads, as the object Foundation compares.
  private static func foundationObject(_ data: Data) throws -> NSObject {
    let object = try JSONSerialization.jsonObject(with: data)
    if let dictionary = object as? [String: Any] { return NSDictionary(dictionary: dictionary) }
    if let array = object as? [Any] { return NSArray(array: array) }
    throw JSON.Error.custom("the document is neither an object nor an array")
  }

  /// Edits a document by a fixed rule, counting every value and member it passes (the
  /// benchmark's documents nest a few levels: recursion is fine here).
  struct Editor {
    private var count = 0

    mutating func edit(_ value: JSON) -> JSON {
      count += 1
      switch value {
      case .string(let string) where count % 5 == 0: return .string(string + "!")
      case .number(let number) where count % 7 == 0:
        if let integer = number.int64Value, integer < .max { return .number(.init(integer + 1)) }
        return .number(.init(number.doubleValue + 1))
      case .array(let elements): return .array(elements.map { edit($0) })
      case .object(let object):
        var members: [(String, JSON)] = []
        var dropped = false
        for member in object.members {
          count += 1
          if count % 11 == 0 {
            dropped = true
            continue
          }
          members.append((member.key, edit(member.value)))
        }
        if dropped, object["automap edit"] == nil { members.append(("automap edit", true)) }
        return .object(JSON.Object(members))
      default: return value
      }
    }
  }
}
