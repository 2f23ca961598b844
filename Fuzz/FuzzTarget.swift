// libFuzzer entry point: compiled together with the library's sources by `.ci/fuzz`, with
// `-sanitize=fuzzer,address`; never part of the package build. Any disagreement or crash is
// a finding: libFuzzer stops and saves the input.

import Foundation

struct FuzzChild: JSONCodable, Equatable {
  var x: Int64?
  var flag: Bool?
  var values: [Double]?
}

struct FuzzModel: JSONCodable, Equatable {
  var id: Int
  var name: String?
  var tags: [String]?
  var score: Double?
  var small: Int8?
  var big: UInt64?
  var amount: Decimal?
  var child: FuzzChild?
  var children: [String: FuzzChild]?
  var meta: JSON?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func automapFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: data, count: size)
  checkJSONRoundTrip(bytes)
  checkModelAgreement(bytes)
  return 0
}

/// Parsing, writing and parsing again gives the same value.
private func checkJSONRoundTrip(_ bytes: UnsafeRawBufferPointer) {
  guard let json = try? JSON(jsonData: bytes) else { return }
  for options: JSON.WritingOptions in [[], [.prettyPrinted, .sortedKeys]] {
    guard let written = try? json.jsonData(options: options) else {
      fatalError("a parsed value could not be written: \(json)")
    }
    guard let again = try? JSON(jsonData: written), again == json else {
      fatalError("write then parse changed the value: \(json)")
    }
  }
}

/// The byte path and the `JSON` path agree on value or error; a decoded value survives
/// encoding and decoding again.
private func checkModelAgreement(_ bytes: UnsafeRawBufferPointer) {
  let viaBytes = Result { try FuzzModel(jsonData: bytes) }
  let viaJSON = Result { try FuzzModel(decode: JSON(mappingBytes: bytes)) }
  switch (viaBytes, viaJSON) {
  case (.success(let a), .success(let b)):
    guard a == b else { fatalError("bytes and JSON decoded differently: \(a) vs \(b)") }
    guard let text = try? a.jsonData(), let again = try? FuzzModel(jsonData: text), again == a
    else { fatalError("encode then decode changed the model: \(a)") }
  case (.failure(let a), .failure(let b)):
    guard "\(a)" == "\(b)" else { fatalError("bytes and JSON failed differently: \(a) vs \(b)") }
  default:
    fatalError("bytes and JSON disagree: \(viaBytes) vs \(viaJSON)")
  }
}
