import AutoMap
import Testing

/// Decodes `text` from `JSON`, then twice from bytes, and checks the values agree. Decoding
/// from `JSON` runs the default `init(decode:)`, which marks the type's reflection observed,
/// so both byte decodes take the fast path straight into the plan (unless a test elsewhere
/// forgets reflection at that moment): this compares the fast path's value with the
/// reference's. A first use from bytes (through `JSON`) is not exercised here: that is what
/// ``agreedDecoding(_:_:keyStyle:)`` adds, forgetting the one type, and the tests under
/// ``ProcessWideState`` do for every model at once.
func decodeAllWays<T: JSONDecodable & Equatable>(_: T.Type, _ text: String) throws -> T {
  let viaJSON = try T(decode: JSON(jsonString: text))
  let viaBytes = try T(jsonString: text)
  let viaBytesAgain = try T(jsonString: text)
  #expect(viaJSON == viaBytes)
  #expect(viaBytes == viaBytesAgain)
  return viaBytesAgain
}

/// The error every path throws for `text`; checks they throw the same path. A byte decode
/// that fails is decoded again through `JSON` values and throws that error, so the two agree
/// by construction: this guards that routing, and the error's content is the `JSON` path's.
func decodingError<T: JSONDecodable>(_: T.Type, _ text: String) -> JSON.Error? {
  let fromJSON = #expect(throws: JSON.Error.self) { try T(decode: JSON(jsonString: text)) }
  _ = try? T(decode: JSON(jsonString: "{}"))  // let reflection be observed, if it is reflection
  let fromBytes = #expect(throws: JSON.Error.self) { try T(jsonString: text) }
  #expect(fromJSON?.path == fromBytes?.path)
  return fromBytes
}
