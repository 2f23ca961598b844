@_spi(Testing) import AutoMap
import Foundation
import Testing

// Arrays of enums with payloads where one element leaves the byte path (a repeated or escaped
// key, a tag written last, a failure) between elements that stay on it: the element must
// mean what it means alone, through the reference, and its neighbours must not notice.

private enum MixInternal: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case pinch(scale: Double)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

private enum MixAdjacent: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case pinch(scale: Double)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
}

private enum MixExternal: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case pinch(scale: Double)
}

private enum MixUntagged: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case pinch(scale: Double)
  static let caseLayout = JSON.CaseLayout.untagged(["tap", "pinch"])
}

private struct MixHolder<E: Codable & JSONCodable & Equatable>: JSONCodable, Equatable {
  var first: E
  var all: [E]
}

/// Elements of each layout: payloads in an order, spelling or shape the byte path hands to
/// the reference, and elements that fail.
private func elements(_ layout: String) -> [String] {
  switch layout {
  case "internal":
    return [
      #"{"type": "tap", "x": 1, "y": 2}"#, #"{"x": 1, "y": 2, "type": "tap"}"#,
      #"{"type": "tap", "type": "pinch", "scale": 1.5}"#, #"{"t\u0079pe": "tap", "x": 1, "y": 2}"#,
      #"{"type": "t\u0061p", "x": 1, "y": 2}"#, #"{"type": "tap", "x": 1, "x": 5, "y": 2}"#,
      #"{"type": "tap", "x": 1, "y": 2, "z": [1, {"a": null}]}"#, #"{"type": "zoom"}"#,
      #"{"type": "tap", "x": 1}"#, #"{"type": "tap", "x": "1", "y": 2}"#, #"{"type": 5}"#,
      #"{"x": 1, "y": 2}"#, #"{}"#, #"[]"#, #"null"#, #""tap""#,
      #" { "type" : "pinch" , "scale" : -0.0 } "#, #"{"type": "pinch", "scale": 1e400}"#,
    ]
  case "adjacent":
    return [
      #"{"type": "tap", "value": {"x": 1, "y": 2}}"#,
      #"{"value": {"x": 1, "y": 2}, "type": "tap"}"#,
      #"{"type": "tap", "value": {"x": 1, "y": 2}, "value": {"x": 3, "y": 4}}"#,
      #"{"type": "pinch", "type": "tap", "value": {"x": 1, "y": 2}}"#,
      #"{"type": "tap", "v\u0061lue": {"x": 1, "y": 2}}"#, #"{"type": "tap"}"#,
      #"{"type": "tap", "value": null}"#, #"{"type": "tap", "value": [1, 2]}"#,
      #"{"type": "zoom", "value": {}}"#, #"{"type": "tap", "value": {"x": 1, "y": 2}, "z": 0}"#,
      #"{"type": "pinch", "value": {"scale": 9007199254740993}}"#,
    ]
  case "external":
    return [
      #"{"tap": {"x": 1, "y": 2}}"#, #"{"t\u0061p": {"x": 1, "y": 2}}"#,
      #"{"tap": {"x": 1, "y": 2}, "pinch": {"scale": 1}}"#, #"{"tap": {"x": 1, "x": 2, "y": 3}}"#,
      #"{"tap": {"y": 2, "x": 1}}"#, #""tap""#, #""pinch""#, #"{"tap": null}"#, #"{"zoom": {}}"#,
      #"{}"#, #"{"pinch": {"scale": 1.5, "scale": 2.5}}"#,
    ]
  default:
    return [
      #"{"x": 1, "y": 2}"#, #"{"scale": 1.5}"#, #"{"x": 1, "y": 2, "scale": 1.5}"#,
      #"{"x": 1, "x": 3, "y": 2}"#, #"{"\u0078": 1, "y": 2}"#, #"{"x": 1}"#, #"{"x": "1", "y": 2}"#,
      #"{}"#, #"[1, 2]"#, #"1.5"#, #""tap""#, #"{"scale": null}"#,
    ]
  }
}

/// What `E` says of `text` alone: from the text, and through a `JSON` value when the text
/// parses as one (`JSON` refuses numbers beyond `Double`, which a model field reports as a
/// type mismatch at its path), which must say the same.
private func alone<E: JSONDecodable & Equatable>(_: E.Type, _ text: String) -> Result<
  E, JSON.Error
> {
  let fromText = Result { try E(jsonString: text) }.mapError { $0 as! JSON.Error }
  if let json = try? JSON(jsonString: text) {
    let fromJSON = Result { try E(decode: json) }.mapError { $0 as! JSON.Error }
    switch (fromText, fromJSON) {
    case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
    case (.failure(let a), .failure(let b)):
      #expect(a.kind == b.kind && a.path == b.path, "\(text)")
    default: Issue.record("from text \(fromText), from JSON \(fromJSON): \(text)")
    }
  }
  return fromText
}

@Suite("Arrays of enums whose elements take different paths")
struct MixedEnumArrayTests {
  @Test(
    "an element means what it means alone, between elements read on the byte path",
    arguments: ["internal", "adjacent", "external", "untagged"])
  func mixedArrays(layout: String) throws {
    switch layout {
    case "internal": check(MixInternal.self, elements(layout))
    case "adjacent": check(MixAdjacent.self, elements(layout))
    case "external": check(MixExternal.self, elements(layout))
    default: check(MixUntagged.self, elements(layout))
    }
  }

  private func check<E: Codable & JSONCodable & Equatable>(_: E.Type, _ texts: [String]) {
    let good = texts[0]
    guard case .success(let goodValue) = alone(E.self, good) else {
      Issue.record("\(E.self): the first element must decode: \(good)")
      return
    }
    for text in texts {
      let single = alone(E.self, text)
      let array = "[\(good), \(text), \(good), \(good)]"
      let holder = #"{"first": \#(text), "all": \#(array)}"#
      for round in 0..<2 {  // the first use of a plan goes through the reference
        let results: [(String, Result<[E], JSON.Error>)] = [
          ("jsonString", Result { try [E](jsonString: array) }.mapError { $0 as! JSON.Error }),
          (
            "jsonData",
            Result { try [E](jsonData: Data(array.utf8)) }.mapError { $0 as! JSON.Error }
          ),
        ]
        for (entry, result) in results {
          switch (single, result) {
          case (.success(let value), .success(let values)):
            #expect(
              values == [goodValue, value, goodValue, goodValue], "\(entry) \(round): \(text)")
          case (.failure(let error), .failure(let arrayError)):
            #expect(arrayError.kind == error.kind, "\(entry) \(round): \(text)")
            #expect(arrayError.path.hasPrefix("[1]"), "\(entry) \(round): \(arrayError.path)")
          default:
            Issue.record("\(entry) \(round): alone \(single), in an array \(result): \(text)")
          }
        }
        let held = Result { try MixHolder<E>(jsonString: holder) }
        switch single {
        case .success(let value):
          #expect(
            (try? held.get())
              == MixHolder(first: value, all: [goodValue, value, goodValue, goodValue]),
            "holder \(round): \(text)")
        case .failure:
          #expect((try? held.get()) == nil, "holder \(round): \(text)")
        }
        // A stream that skips bad elements hands out exactly the ones that decode alone.
        var options = JSON.StreamOptions()
        options.skipsBadElements = true
        let streamed = SyncJSONStream(of: E.self, data: Data(array.utf8), options: options)
          .compactMap { try? $0.get() }
        let expected =
          [goodValue] + ((try? single.get()).map { [$0] } ?? []) + [goodValue, goodValue]
        #expect(streamed == expected, "stream \(round): \(text)")
      }
    }
  }
}
