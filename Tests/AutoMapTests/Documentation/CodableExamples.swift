import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/Codable.md (see GettingStartedExamples.swift).

enum CodableArticle {
  // docc:begin
  struct Money: Codable {  // from another package
    var amount: Decimal
    var currency: String
  }

  struct Order: JSONCodable {
    static let keyStyle = JSON.KeyStyle.snakeCase
    var id: Int
    var grandTotal: Money  // {"grand_total": {"amount": 5, "currency": "EUR"}}
    var lineTotals: [Money]
    var discount: Money?  // absent or null: nil
  }
  // docc:end

  // docc:begin
  struct Profile: CodableByMapping {
    var userID = 0
    var displayName = ""
    static func specificOptions() -> [String: SpecificOption] { ["userID": "user_id"] }
  }
  // docc:end

  // docc:begin
  struct Event: Codable { var name: String; var payload: JSON }
  // docc:end
}

extension CodableArticle {
  @Suite("Documentation: Codable")
  struct Examples {
    @Test("Codable types map as properties, with AutoMap's errors")
    func codableProperties() throws {
      let order = try Order(
        jsonString: #"""
          {"id": 1, "grand_total": {"amount": 5, "currency": "EUR"},
           "line_totals": [{"amount": 2.5, "currency": "EUR"}]}
          """#)
      #expect(order.grandTotal.amount == 5 && order.lineTotals.count == 1 && order.discount == nil)
      let data = Data(
        #"{"id": 1, "grand_total": {"amount": "5", "currency": "EUR"}, "line_totals": []}"#.utf8)
      let error = #expect(throws: JSON.Error.self) {
        // docc:begin
        try Order(jsonData: data)  // at grand_total.amount: expected Decimal, found string "5"
        // docc:end
      }
      #expect(error?.path == "grand_total.amount")
      #expect(error?.description.contains(#"expected Decimal, found string "5""#) == true)
    }

    @Test("CodableByMapping makes a model Codable through its mapping")
    func codableByMapping() throws {
      let profile = Profile(userID: 7, displayName: "Ada")
      let data = Data(#"[{"user_id": 8, "displayName": "Lin"}]"#.utf8)
      // docc:begin
      let encoded = try JSONEncoder().encode(profile)  // keys "user_id" and "displayName"
      let profiles = try JSONDecoder().decode([Profile].self, from: data)
      // docc:end
      #expect(try JSON(jsonData: encoded) == ["user_id": 7, "displayName": "Ada"])
      #expect(profiles.map(\.userID) == [8])
    }

    @Test("JSON is Codable")
    func jsonIsCodable() throws {
      let event = try JSONDecoder().decode(
        Event.self,
        from: Data(#"{"name": "paid", "payload": {"id": 1, "tags": [true, null]}}"#.utf8))
      #expect(event.payload == ["id": 1, "tags": [true, nil]])
    }
  }
}
