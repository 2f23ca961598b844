import AutoMap
import Foundation
import Testing

struct Budget: JSONCodable, DefaultInitable, Equatable {
  var limit = 10
  var spent = 0
  var note = "ok"
  mutating func didDecode() throws {
    note = "checked"
    guard spent <= limit else { throw JSON.Error.custom("spent exceeds limit") }
  }
}

final class Wallet: JSONCodable, DefaultInitable {
  var balance = 5
  var owner = "a"
  required init() {}
  func didDecode() throws {
    guard balance >= 0 else { throw JSON.Error.custom("negative balance") }
  }
}

struct Stamp: JSONCodable, Equatable {
  var at: Date
}

@Suite("Updates are all or nothing; messages say what is true")
struct UpdateAndMessagesTests {
  @Test("a didDecode() that throws leaves a struct as it was")
  func structRollback() throws {
    var budget = Budget()
    #expect(throws: JSON.Error.self) { try budget.update(from: ["spent": 50, "note": "x"]) }
    #expect(budget == Budget())
    try budget.update(from: ["spent": 5])
    #expect(budget.spent == 5 && budget.note == "checked")
  }

  @Test("a didDecode() that throws leaves a class's mapped properties as they were")
  func classRollback() throws {
    let wallet = Wallet()
    #expect(throws: JSON.Error.self) { try wallet.update(from: ["balance": -1, "owner": "b"]) }
    #expect(wallet.balance == 5 && wallet.owner == "a")
    try wallet.update(from: ["balance": 7])
    #expect(wallet.balance == 7 && wallet.owner == "a")
  }

  @Test("update refuses types that are not reflected models")
  func updateRefusesLeaves() {
    var date = Date(timeIntervalSince1970: 0)
    let error = #expect(throws: JSON.Error.self) { try date.update(from: ["_time": 99]) }
    #expect(error?.kind == .invalidModel)
    #expect(date == Date(timeIntervalSince1970: 0))
    var url = URL(fileURLWithPath: "/")
    #expect(throws: JSON.Error.self) { try url.update(from: [:]) }
  }

  @Test("an unknown raw value is quoted in the error")
  func rawValueQuoted() {
    let error = #expect(throws: JSON.Error.self) { try Role(jsonString: #""admn""#) }
    #expect(error?.description == #"at the root: "admn" is not a raw value of Role"#)
    let number = #expect(throws: JSON.Error.self) { try Level(jsonString: "7") }
    #expect(number?.description == "at the root: 7 is not a raw value of Level")
  }

  @Test("ISO 8601 dates beyond year 9999 round-trip in the expanded form")
  func farDates() throws {
    for text in [
      "+010000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "-000001-12-31T23:59:59Z",
      "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.500Z",
    ] {
      let stamp = try Stamp(jsonString: #"{"at": "\#(text)"}"#)
      #expect(try stamp.jsonString() == #"{"at":"\#(text)"}"#)
      #expect(try Stamp(jsonString: stamp.jsonString()) == stamp)
    }
    let far = Stamp(at: Date(timeIntervalSince1970: 1e300))
    let error = #expect(throws: JSON.Error.self) { try far.jsonString() }
    #expect(error?.kind == .unencodable)
    #expect(error?.path == "at")
    #expect(throws: JSON.Error.self) { try Stamp(jsonString: #"{"at": "10000-01-01T00:00:00Z"}"#) }
  }
}
