import AutoMap
import Testing

/// Decodes `text` through every path AutoMap has and checks they agree: from `JSON`, from
/// bytes before reflection is observed (subtree to `JSON`), and from bytes straight into the
/// plan (the fast path, once the type's reflection has been seen).
func decodeAllWays<T: JSONDecodable & Equatable>(_: T.Type, _ text: String) throws -> T {
  let viaJSON = try T(decode: JSON(jsonString: text))
  let viaBytes = try T(jsonString: text)
  let viaBytesAgain = try T(jsonString: text)
  #expect(viaJSON == viaBytes)
  #expect(viaBytes == viaBytesAgain)
  return viaBytesAgain
}

/// The error every path throws for `text`; checks they throw the same path.
func decodingError<T: JSONDecodable>(_: T.Type, _ text: String) -> JSON.Error? {
  let fromJSON = #expect(throws: JSON.Error.self) { try T(decode: JSON(jsonString: text)) }
  _ = try? T(decode: JSON(jsonString: "{}"))  // let reflection be observed, if it is reflection
  let fromBytes = #expect(throws: JSON.Error.self) { try T(jsonString: text) }
  #expect(fromJSON?.path == fromBytes?.path)
  return fromBytes
}
