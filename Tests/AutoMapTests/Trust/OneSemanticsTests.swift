@_spi(Testing) import AutoMap
import Foundation
import Testing

struct Person: JSONCodable, Equatable {
  var age: Int
  var name: String?
}

struct Nullish: JSONCodable {
  var raw: JSON = .null
  var twice: Int?? = .some(nil)
  var kept: Int? = nil
  static func specificOptions() -> [String: SpecificOption] { ["kept": .ignoreIfNull] }
}

struct Strict: JSONCodable, Equatable {
  var a: Int
  var b: Int
}

/// Every way to decode `text`, first uses included: each result as a value or an error.
func everyDecoding<T: JSONDecodable>(
  _: T.Type, _ text: String, keyStyle: JSON.KeyStyle = .exact
) -> [Result<T, JSON.Error>] {
  func run(_ body: () throws -> T) -> Result<T, JSON.Error> {
    Result { try body() }.mapError { $0 as? JSON.Error ?? JSON.Error.custom("\($0)") }
  }
  // Only `T` is forgotten: its first use goes through `JSON` from the top, as after forgetting
  // every model, and the suites running beside this one keep their paths.
  func forget() { #expect(AutoMapTesting.forgetReflection(decoding: T.self), "\(T.self)") }
  var results: [Result<T, JSON.Error>] = []
  for first in [true, false] {
    if first { forget() }
    results.append(run { try T(jsonString: text, keyStyle: keyStyle) })
    if first { forget() }
    results.append(run { try T(jsonData: Data(text.utf8), keyStyle: keyStyle) })
    if first { forget() }
    results.append(run { try T(decode: JSON(jsonString: text), keyStyle: keyStyle) })
  }
  return results
}

/// The entry points of ``everyDecoding(_:_:keyStyle:)``, in its order.
let everyDecodingEntryPoints = [
  "first jsonString", "first jsonData", "first decode(JSON)", "jsonString", "jsonData",
  "decode(JSON)",
]

/// Checks every way of decoding agrees, and returns the common result. A disagreement names
/// the entry point and shows where the two descriptions part (deep values print long).
func agreedDecoding<T: JSONDecodable & Equatable>(
  _: T.Type, _ text: String, keyStyle: JSON.KeyStyle = .exact
) -> Result<T, JSON.Error>? {
  let results = everyDecoding(T.self, text, keyStyle: keyStyle)
  let shown = text.count > 300 ? "\(text.prefix(300))… (\(text.utf8.count) bytes)" : text
  for (entry, result) in zip(everyDecodingEntryPoints, results).dropFirst() {
    switch (results[0], result) {
    case (.success(let a), .success(let b)):
      if a != b {
        Issue.record(
          "\(entry) disagrees with the first jsonString on \(shown): \(partingExcerpt("\(a)", "\(b)"))"
        )
      }
    case (.failure(let a), .failure(let b)):
      #expect(a.path == b.path, "\(entry): \(shown)")
      #expect(a.description == b.description, "\(entry): \(shown)")
    default:
      let parting = partingExcerpt("\(results[0])", "\(result)")
      Issue.record("\(entry) disagrees with the first jsonString on \(shown): \(parting)")
    }
  }
  return results.first
}

/// Where two descriptions part: 120 characters of each from a little before the first
/// difference.
func partingExcerpt(_ a: String, _ b: String) -> String {
  let common = zip(a, b).prefix { $0 == $1 }.count
  let start = max(0, common - 40)
  return
    "at character \(common): \(a.dropFirst(start).prefix(120)) ≠ \(b.dropFirst(start).prefix(120))"
}

extension ProcessWideState {
  @Suite("One semantics on every entry point", .serialized)
  struct OneSemanticsTests {
    @Test(
      "case-insensitive keys fold ASCII only, and the last match wins",
      arguments: [
        (#"{"AGE": 1}"#, 1), (#"{"Age": 1, "AGE": 2}"#, 2), (#"{"age": 1, "AGE": 2}"#, 2),
        (#"{"AGE": 2, "age": 1}"#, 1),
      ])
    func caseInsensitive(text: String, age: Int) throws {
      let result = agreedDecoding(Person.self, text, keyStyle: .caseInsensitive)
      #expect(try result?.get().age == age)
    }

    @Test("non-ASCII letters must match exactly under .caseInsensitive")
    func nonASCII() {
      struct Street: JSONCodable, Equatable { var straße: String? }
      #expect(
        (try? agreedDecoding(Street.self, #"{"STRAßE": "a"}"#, keyStyle: .caseInsensitive)?.get())
          == Street(straße: "a"))
      #expect(
        (try? agreedDecoding(Street.self, #"{"STRASSE": "a"}"#, keyStyle: .caseInsensitive)?.get())
          == Street(straße: nil))
      struct Accent: JSONCodable, Equatable { var été: Int? }
      #expect(
        (try? agreedDecoding(Accent.self, #"{"ÉTÉ": 1}"#, keyStyle: .caseInsensitive)?.get())
          == Accent(été: nil))
    }

    @Test("a repeated key: the last occurrence decides, whatever the earlier ones held")
    func repeatedKeys() throws {
      #expect(
        try agreedDecoding(Strict.self, #"{"a": "x", "b": 2, "a": 1}"#)?.get() == Strict(a: 1, b: 2)
      )
      let error = agreedDecoding(Strict.self, #"{"a": 1, "b": 2, "a": "x"}"#)
      #expect(throws: JSON.Error.self) { try error?.get() }
      #expect(try [String: Int](jsonString: #"{"k": "x", "k": 1}"#) == ["k": 1])
      #expect(try [String: Int](decode: JSON(jsonString: #"{"k": "x", "k": 1}"#)) == ["k": 1])
    }

    @Test("the error reported is the first field in declaration order, on every path")
    func errorOrder() {
      guard case .failure(let error) = agreedDecoding(Strict.self, #"{"b": "x", "a": "y"}"#) else {
        Issue.record("expected a failure")
        return
      }
      #expect(error.path == "a")
    }

    @Test("malformed text wins over a mapping error, with the same position everywhere")
    func malformedWins() {
      guard case .failure(let error) = agreedDecoding(Strict.self, #"{"a": "x", "b": 1,}"#) else {
        Issue.record("expected a failure")
        return
      }
      guard case .malformed = error.kind else {
        Issue.record("expected malformed, got \(error)")
        return
      }
      #expect(error.path == "")
    }

    @Test("omitNulls and ignoreIfNull leave out whatever encodes to null, on every path")
    func omittedNulls() throws {
      let value = Nullish()
      for _ in 0..<2 {
        ProcessWideState.forgetReflection()
        let first = try value.jsonString(options: [.omitNulls])
        let bytes = String(decoding: try value.jsonData(options: [.omitNulls]), as: UTF8.self)
        let tree = try value.json.jsonString(options: [.omitNulls])
        #expect(first == "{}")
        #expect(bytes == "{}")
        #expect(tree == "{}")
        let plain = try value.jsonString()
        #expect(plain == #"{"raw":null,"twice":null}"#)
        #expect(try value.json.jsonString() == plain)
        #expect(String(decoding: try value.jsonData(), as: UTF8.self) == plain)
      }
      #expect(try ["a": JSON.null, "b": 1].jsonString(options: [.omitNulls]) == #"{"b":1}"#)
      let nested: [String: Int??] = ["a": .some(nil)]
      #expect(try nested.jsonString(options: [.omitNulls]) == "{}")
    }
  }
}
