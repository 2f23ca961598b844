import AutoMap
import Foundation
import Testing

/// Optionals of `Codable`-only types (`Money?`) are read by AutoMap's own optional rule around
/// the wrapped type's `Codable` code, on bytes and on `JSON` alike, and arrays of them
/// (`[Money]`) element by element on bytes: the same values, errors and coding paths as the
/// standard library's `Optional.init(from:)` and `Array.init(from:)` gave, alone and inside
/// the arrays (`[[Money?]]?`) that `Array.init(from:)` still reads.
@Suite struct CodableContainerTests {
  private struct Money: Codable, Equatable {
    var amount: Double
    var currency: String
  }

  private struct Ledger: JSONCodable, Equatable {
    var lines: [Money] = []
    var discount: Money?
    var grid: [[Money?]]?
  }

  @Test func values() throws {
    let money = #"{"amount": 1.5, "currency": "EUR"}"#
    let text = """
      {"lines": [\(money), \(money)], "discount": \(money),
       "grid": [[null, \(money)], [], [\(money)]]}
      """
    let ledger = try agree(Ledger.self, text).get()
    let one = Money(amount: 1.5, currency: "EUR")
    #expect(ledger.lines == [one, one])
    #expect(ledger.discount == one)
    #expect(ledger.grid == [[nil, one], [], [one]])
    let empty = try agree(Ledger.self, #"{"lines": [], "discount": null, "grid": null}"#).get()
    #expect(empty == Ledger())
    #expect(try agree(Ledger.self, #"{"lines": [ ] }"#).get() == Ledger())
    // A repeated key in an element: the last one wins, on both paths.
    let repeated = try agree(
      Ledger.self, #"{"lines": [{"amount": 1, "currency": "E", "amount": 2}]}"#
    ).get()
    #expect(repeated.lines == [Money(amount: 2, currency: "E")])
  }

  /// The errors the standard library's `Array.init(from:)` and `Optional.init(from:)` gave.
  @Test func errors() {
    let cases: [(String, String)] = [
      (#"{"lines": "x"}"#, #"at lines: expected an array, found string "x""#),
      (
        #"{"lines": [{"amount": 1, "currency": "E"}, {"amount": "z", "currency": "E"}]}"#,
        #"at lines[1].amount: expected Double, found string "z""#
      ),
      (#"{"lines": [1]}"#, "at lines[0]: expected Money (an object), found number 1"),
      (#"{"lines": [null]}"#, "at lines[0]: expected Money (an object), found null"),
      (#"{"lines": [[1]]}"#, "at lines[0]: expected Money (an object), found array of 1"),
      (#"{"lines": [], "discount": 3}"#, "at discount: expected Money (an object), found number 3"),
      (
        #"{"lines": [], "discount": {"amount": 1}}"#,
        #"at discount.currency: missing key "currency" for Money.currency"#
      ),
      (
        #"{"lines": [], "grid": [[3]]}"#,
        "at grid[0][0]: expected Money (an object), found number 3"
      ),
      (#"{"lines": [], "grid": {}}"#, "at grid: expected an array, found object of 0 members"),
    ]
    for (text, message) in cases {
      guard case .failure(let error) = agree(Ledger.self, text) else {
        Issue.record("\(text) decoded")
        continue
      }
      #expect(error.description == message, "\(text)")
    }
  }

  /// The coding path `init(from:)` sees: an optional's value is read at the optional's place,
  /// an array's elements at theirs.
  @Test func codingPaths() throws {
    let text = #"{"one": {}, "some": [{}, {}], "maybe": null}"#
    let paths = try PathHolder(jsonString: text)
    #expect(paths.one?.path == "")
    #expect(paths.some.map(\.path) == ["0", "1"])
    let tree = try PathHolder(decode: JSON(jsonString: text))
    #expect(tree.one?.path == "")
    #expect(tree.some.map(\.path) == ["0", "1"])
  }

  /// An array's element that the byte `Decoder` gives up on (a repeated key) is decoded again
  /// alone, through the reference, at its place: the same values and coding paths as the
  /// others, and as on `JSON` values.
  @Test func elementDecodedAgainAlone() throws {
    let text = #"{"items": [{"a": 1}, {"a": 2, "a": 3}, {"a": 4}]}"#
    // The first read of a model type goes through `JSON` values; the second, bytes.
    for _ in 0..<2 {
      let holder = try KeyedHolder(jsonString: text)
      #expect(holder.items.map(\.a) == [1, 3, 4])
      #expect(holder.items.map(\.path) == ["0", "1", "2"])
      #expect(try KeyedHolder(decode: JSON(jsonString: text)) == holder)
    }
  }
}

/// A `Codable` value that reads a key, then records the coding path its decoder reports.
private struct KeyedProbe: Codable, Equatable {
  var a = 0
  var path = ""
  enum CodingKeys: String, CodingKey { case a }
  init(from decoder: any Decoder) throws {
    a = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .a)
    path = decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      .joined(separator: ".")
  }
  func encode(to encoder: any Encoder) throws {}
}

private struct KeyedHolder: JSONCodable, Equatable {
  var items: [KeyedProbe] = []
}

/// A `Codable` value that records the coding path its decoder reports.
private struct PathProbe: Codable, Equatable {
  var path = ""
  init(from decoder: any Decoder) throws {
    path = decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      .joined(separator: ".")
  }
  func encode(to encoder: any Encoder) throws {}
}

private struct PathHolder: JSONCodable {
  var one: PathProbe?
  var some: [PathProbe] = []
  var maybe: PathProbe?
}
