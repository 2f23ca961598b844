import AutoMap
import Foundation
import Testing

/// Arrays and optionals of `Codable`-only types (`[Money]`, `Money?`, `[[Money?]]?`) are read
/// by AutoMap's own array and optional rules around the element's `Codable` code, on bytes and
/// on `JSON` alike: the same values and the same errors as the standard library's
/// `Array.init(from:)` and `Optional.init(from:)` gave, and, when every problem is collected,
/// every element's, as for arrays of mapped models.
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

  /// The same shape with a mapped element, for the problems collected.
  private struct MappedMoney: JSONCodable, Equatable {
    var amount = 0.0
    var currency = ""
  }

  private struct MappedLedger: JSONCodable, Equatable {
    var lines: [MappedMoney] = []
    var discount: MappedMoney?
    var grid: [[MappedMoney?]]?
  }

  /// Decodes `text` from bytes and from `JSON`: both must give the same value or error.
  private func both(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Result<
    Ledger, JSON.Error
  > {
    let bytes = Result { try Ledger(jsonString: text) }.mapError { $0 as! JSON.Error }
    let tree = Result { try Ledger(decode: JSON(jsonString: text)) }.mapError { $0 as! JSON.Error }
    switch (bytes, tree) {
    case (.success(let a), .success(let b)):
      #expect(a == b, "\(text)", sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
      #expect(a.description == b.description, "\(text)", sourceLocation: sourceLocation)
    default:
      Issue.record("\(text): bytes \(bytes), JSON \(tree)", sourceLocation: sourceLocation)
    }
    return bytes
  }

  @Test func values() throws {
    let money = #"{"amount": 1.5, "currency": "EUR"}"#
    let text = """
      {"lines": [\(money), \(money)], "discount": \(money),
       "grid": [[null, \(money)], [], [\(money)]]}
      """
    let ledger = try both(text).get()
    let one = Money(amount: 1.5, currency: "EUR")
    #expect(ledger.lines == [one, one])
    #expect(ledger.discount == one)
    #expect(ledger.grid == [[nil, one], [], [one]])
    let empty = try both(#"{"lines": [], "discount": null, "grid": null}"#).get()
    #expect(empty == Ledger())
    #expect(try both(#"{"lines": [ ] }"#).get() == Ledger())
    // A repeated key in an element: the last one wins, on both paths.
    let repeated = try both(#"{"lines": [{"amount": 1, "currency": "E", "amount": 2}]}"#).get()
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
      guard case .failure(let error) = both(text) else {
        Issue.record("\(text) decoded")
        continue
      }
      #expect(error.description == message, "\(text)")
    }
  }

  @Test("every element's problem is collected, as for arrays of mapped models")
  func everyProblem() throws {
    let text = """
      {"lines": [{"amount": "a", "currency": "E"}, {"amount": 1, "currency": "E"}, {"amount": 1}],
       "discount": {"currency": "E"}, "grid": [[null, {"amount": 2, "currency": "X"}], [], [3]]}
      """
    let all = JSON.Configuration(collectsAllErrors: true)
    func paths(_ decode: () throws -> Void) -> [String] {
      do {
        try JSON.withConfiguration(all, decode)
        return []
      } catch let error as JSON.Error {
        return (error.problems.isEmpty ? [error] : error.problems).map(\.path)
      } catch {
        return ["\(error)"]
      }
    }
    let expected = ["lines[0].amount", "lines[2].currency", "discount.amount", "grid[2][0]"]
    #expect(paths { _ = try Ledger(jsonString: text) } == expected)
    #expect(paths { _ = try Ledger(decode: JSON(jsonString: text)) } == expected)
    #expect(paths { _ = try MappedLedger(jsonString: text) } == expected)
  }
}
