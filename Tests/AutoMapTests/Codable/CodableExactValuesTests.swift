import AutoMap
import Foundation
import Testing

/// The README's `Money`: a `Codable` type from another package.
private struct CodableMoney: Codable, Equatable {
  var amount: Decimal
  var currency: String
}

private struct Attachment: Codable, Equatable {
  var link: URL
  var id: UUID
  var bytes: Data
}

private struct ExactOrder: JSONCodable, Equatable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var id: Int
  var grandTotal: CodableMoney
  var lineTotals: [CodableMoney]
  var discount: CodableMoney?
  var attachment: Attachment
}

/// `Money` whose `init(from:)` notes, for the task's list, the underlying error of each
/// `DecodingError` it sees before passing the error on.
private struct WatchedMoney: Codable {
  @TaskLocal static var seen: LockedList<String>?
  var amount: Decimal

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      amount = try container.decode(Decimal.self, forKey: .amount)
    } catch let error as DecodingError {
      Self.seen?.append(Self.underlying(error))
      throw error
    }
  }

  static func underlying(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      guard let json = context.underlyingError as? JSON.Error else {
        return "no JSON.Error under \(error)"
      }
      return "\(json.kind): \(json.message)"
    @unknown default: return "\(error)"
    }
  }
}

private struct WatchedOrder: JSONCodable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var grandTotal: WatchedMoney
}

@Suite("Codable values inside models, as AutoMap reads them")
struct CodableExactValuesTests {
  static let text = #"""
    {"id": 1, "grand_total": {"amount": 12345678901234567890.123456789, "currency": "EUR"},
     "line_totals": [{"amount": 0.1, "currency": "EUR"}, {"amount": 9007199254740993, "currency": "EUR"}],
     "attachment": {"link": "https://example.com/a?b=c", "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "bytes": "yv4="}}
    """#

  @Test("Decimal, URL, UUID and Data inside a Codable value are read exactly, and written back")
  func exact() throws {
    let money = { (digits: String) in
      CodableMoney(amount: Decimal(string: digits) ?? .nan, currency: "EUR")
    }
    let expected = ExactOrder(
      id: 1, grandTotal: money("12345678901234567890.123456789"),
      lineTotals: [money("0.1"), money("9007199254740993")], discount: nil,
      attachment: Attachment(
        link: try #require(URL(string: "https://example.com/a?b=c")),
        id: try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")),
        bytes: Data([0xCA, 0xFE])))
    _ = try ExactOrder(decode: JSON(jsonString: Self.text))  // reflection observed: fast path
    for order in [
      try ExactOrder(jsonString: Self.text), try ExactOrder(jsonData: Data(Self.text.utf8)),
      try ExactOrder(decode: JSON(jsonString: Self.text)),
    ] {
      #expect(order == expected)
      #expect(order.grandTotal.amount.description == "12345678901234567890.123456789")
      #expect(order.lineTotals.map(\.amount.description) == ["0.1", "9007199254740993"])
    }
    #expect(
      try expected.jsonString()
        == #"{"id":1,"grand_total":{"amount":12345678901234567890.123456789,"currency":"EUR"},"#
        + #""line_totals":[{"amount":0.1,"currency":"EUR"},{"amount":9007199254740993,"currency":"EUR"}],"#
        + #""discount":null,"attachment":{"link":"https://example.com/a?b=c","#
        + #""id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","bytes":"yv4="}}"#)
  }

  @Test("Codable code sees a DecodingError whose underlyingError is the JSON.Error thrown")
  func underlyingError() throws {
    let text = #"[{"grand_total": {"amount": 1}}, {"grand_total": {"amount": "5"}}]"#
    for decode in [
      { try [WatchedOrder](jsonString: text) }, { try [WatchedOrder](jsonData: Data(text.utf8)) },
      { try [WatchedOrder](decode: JSON(jsonString: text)) },
    ] {
      let seen = LockedList<String>()
      let error = WatchedMoney.$seen.withValue(seen) {
        #expect(throws: JSON.Error.self) { try decode() }
      }
      #expect(
        error?.description == #"at [1].grand_total.amount: expected Decimal, found string "5""#)
      #expect(seen.elements.last == #"typeMismatch: expected Decimal, found string "5""#)
      #expect(Set(seen.elements).count == 1, "\(seen.elements)")
    }
  }
}
