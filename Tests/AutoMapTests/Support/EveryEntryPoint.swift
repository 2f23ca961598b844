import AutoMap
import Foundation
import Testing

/// What one entry point gave for a document: a value, or an error as its callers see it.
enum EntryOutcome<T: Equatable>: Equatable {
  case value(T)
  case failure(kind: JSON.Error.Kind, description: String)

  init(_ body: () throws -> T) {
    do {
      self = .value(try body())
    } catch let error as JSON.Error {
      self = .failure(kind: error.kind, description: error.description)
    } catch {
      self = .failure(kind: .custom, description: "not a JSON.Error: \(error)")
    }
  }

  var value: T? {
    if case .value(let value) = self { return value }
    return nil
  }

  var description: String? {
    if case .failure(_, let description) = self { return description }
    return nil
  }

  var kind: JSON.Error.Kind? {
    if case .failure(let kind, _) = self { return kind }
    return nil
  }
}

/// Decodes `text` through every entry point, bytes first, then `String`, then `JSON`, then
/// bytes and `String` again, and expects the same value or the same error description from
/// all of them. Returns that outcome. The bytes go through `JSON` values on the type's first
/// use in the process, if this is it, and straight into memory once its reflection has been
/// observed: which one the first call takes depends on what ran before, so first uses are
/// checked by `FirstUseTests`. A byte decode that fails is decoded again through `JSON`,
/// so errors agree by construction; values on the byte path are compared for real.
@discardableResult
func outcomeOnEveryPath<T: JSONDecodable & Equatable>(
  _: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) -> EntryOutcome<T> {
  var outcomes: [(String, EntryOutcome<T>)] = [
    ("T(jsonData:)", EntryOutcome { try T(jsonData: Data(text.utf8)) }),
    ("T(jsonString:)", EntryOutcome { try T(jsonString: text) }),
  ]
  // `JSON(jsonString:)` refuses a number beyond `Double`'s range (`1e400`) by design, where a
  // model reports it at the property: there is no `JSON` value to compare then.
  if case .failure(kind: .numberOutOfRange, _) = EntryOutcome({ try JSON(jsonString: text) }) {
  } else {
    outcomes.append(("T(decode: JSON)", EntryOutcome { try T(decode: JSON(jsonString: text)) }))
  }
  outcomes += [
    ("T(jsonData:) again", EntryOutcome { try T(jsonData: Data(text.utf8)) }),
    ("T(jsonString:) again", EntryOutcome { try T(jsonString: text) }),
  ]
  let reference = outcomes[0].1
  for (entry, outcome) in outcomes.dropFirst() {
    #expect(
      outcome == reference, "\(entry) disagrees on \(text): \(outcome) vs \(reference)",
      sourceLocation: sourceLocation)
  }
  return reference
}

/// Encodes `value` through `json`, `jsonData()` and `jsonString()` with sorted keys, expects
/// the same text from each, and returns it.
func textOnEveryPath<T: JSONEncodable>(
  _ value: T, sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
  let viaJSON = try value.json.jsonString(options: [.sortedKeys])
  let viaString = try value.jsonString(options: [.sortedKeys])
  let viaData = String(decoding: try value.jsonData(options: [.sortedKeys]), as: UTF8.self)
  #expect(viaJSON == viaString, sourceLocation: sourceLocation)
  #expect(viaData == viaString, sourceLocation: sourceLocation)
  return viaString
}
