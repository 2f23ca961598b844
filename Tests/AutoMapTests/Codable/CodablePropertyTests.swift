@_spi(Testing) import AutoMap
import Foundation
import Testing

@Suite("Codable properties")
struct CodablePropertyTests {
  static let shop = """
    {"orders": [
      {"id": 1, "total": {"amount": 10, "currency": "USD"}, "lines": [{"amount": 10}],
       "byCode": {"a": {"amount": 1}, "b": null}, "discount": null},
      {"id": 2, "total": {"amount": 20}, "lines": [], "byCode": {}},
      {"id": 3, "total": {"amount": -9223372036854775808, "currency": "JPY"}, "lines": [],
       "byCode": {}, "discount": {"amount": 9223372036854775807}}
    ]}
    """

  @Test("Codable values map at every depth: plain, array, dictionary of optionals, optional")
  func mapsAtEveryDepth() throws {
    let shop = try Shop(jsonString: Self.shop)
    #expect(shop.orders.count == 3)
    #expect(shop.orders[0].total == Price(10, "USD"))
    #expect(shop.orders[0].lines == [Price(10)])  // init(from:)'s own default
    let expected: [String: Price?] = ["a": Price(1), "b": Price?.none]
    #expect(shop.orders[0].byCode == expected)  // null kept as a nil value
    #expect(shop.orders[0].discount == nil)  // null
    #expect(shop.orders[1].discount == nil)  // absent
    #expect(shop.orders[2].total.amount == Int64.min)
    #expect(shop.orders[2].discount == Price(Int64.max))
    #expect(try Shop(decode: JSON(jsonString: Self.shop)) == shop)
  }

  @Test("Encoding writes what encode(to:) writes, and decodes back to the same value")
  func roundTrips() throws {
    let shop = try Shop(jsonString: Self.shop)
    let text = try shop.jsonString(options: [.sortedKeys])
    #expect(try Shop(jsonString: text) == shop)
    let json = try shop.json
    #expect(json["orders", 0, "total"] == ["amount": 10, "currency": "USD"])
    #expect(json["orders", 0, "byCode", "b"] == .null)
    #expect(json["orders", 1, "discount"] == .null)
    #expect(try JSON(jsonString: text) == json)  // bytes and JSON agree
  }

  @Test("errors name the full path into the Codable value, on every entry point")
  func errorPaths() throws {
    let cases: [(text: String, path: String, message: String)] = [
      (
        #"{"orders": [{"id": 1, "total": {"amount": 1}, "lines": [], "byCode": {}}, {"id": 2, "total": {"amount": 1}, "lines": [], "byCode": {}}, {"id": 3, "total": {"amount": "x"}, "lines": [], "byCode": {}}]}"#,
        "orders[2].total.amount", #"expected Int64, found string "x""#
      ),
      (
        #"{"orders": [{"id": 1, "total": {}, "lines": [], "byCode": {}}]}"#,
        "orders[0].total.amount", #"missing key "amount" for Price.amount"#
      ),
      (
        #"{"orders": [{"id": 1, "total": {"amount": 1}, "lines": [{"amount": 1}, {"amount": 2, "currency": "EURO"}], "byCode": {}}]}"#,
        "orders[0].lines[1].currency", "a currency has 3 letters"
      ),
      (
        #"{"orders": [{"id": 1, "total": {"amount": 1}, "lines": [], "byCode": {"k.e y": {"amount": 1.5}}}]}"#,
        #"orders[0].byCode["k.e y"].amount"#, "expected Int64, found number 1.5 (not an integer)"
      ),
      (
        #"{"orders": [{"id": 1, "total": [1], "lines": [], "byCode": {}}]}"#,
        "orders[0].total", "expected Price (an object), found array of 1"
      ),
      (
        #"{"orders": [{"id": 1, "total": {"amount": null}, "lines": [], "byCode": {}}]}"#,
        "orders[0].total.amount", "expected Int64, found null"
      ),
      (
        #"{"orders": [{"id": 1, "total": {"amount": 1}, "lines": null, "byCode": {}}]}"#,
        "orders[0].lines", "expected Array<Price> for Order.lines, found null"
      ),
    ]
    expectDecodingErrors(Shop.self, cases, prefix: true)
  }

  @Test("numbers at the limits are exact, and out of range is an error, never clamped")
  func numberLimits() throws {
    struct Box: JSONCodable, Equatable { var limits: Limits }
    let max =
      #"{"limits": {"small": -128, "big": 9223372036854775807, "huge": 18446744073709551615, "real": 1.7976931348623157e308, "single": 3.4028234e38, "flag": true}}"#
    let box = try #require(try agreedDecoding(Box.self, max)?.get())
    #expect(box.limits.big == .max && box.limits.huge == .max && box.limits.small == .min)
    #expect(box.limits.real == .greatestFiniteMagnitude)
    #expect(try Box(jsonString: box.jsonString()) == box)
    let bad: [(String, String)] = [
      (#""small": 128"#, "limits.small"), (#""big": 9223372036854775808"#, "limits.big"),
      (#""huge": -1"#, "limits.huge"), (#""single": 1e39"#, "limits.single"),
      (#""flag": 1"#, "limits.flag"),
      (#""big": 1e2"#, ""),  // integral: fine
    ]
    for (member, path) in bad {
      let name = member.prefix { $0 != ":" }
      let text = max.replacingOccurrences(
        of: #"\#(name): [^,}]+"#, with: member, options: .regularExpression)
      #expect(text.contains(member))
      let result = agreedDecoding(Box.self, text)
      if path.isEmpty {
        #expect(try result?.get().limits.big == 100)
      } else {
        guard case .failure(let error) = result else {
          Issue.record("decoded \(member)")
          continue
        }
        #expect(error.path == path)
        #expect(error.kind == .typeMismatch)
      }
    }
    // Beyond Double's range: JSON(jsonString:) refuses the text, the byte paths the value.
    let overflow = max.replacingOccurrences(of: "1.7976931348623157e308", with: "1e400")
    for error in [
      #expect(throws: JSON.Error.self) { try Box(jsonString: overflow) },
      #expect(throws: JSON.Error.self) { try Box(jsonData: Data(overflow.utf8)) },
    ] {
      #expect(error?.path == "limits.real")
      #expect(error?.message == "expected Double, found number 1e400 (out of range)")
    }
    // Non-finite numbers cannot be written: an error at the path, not bad JSON text.
    var infinite = box
    infinite.limits.real = .infinity
    let error = #expect(throws: JSON.Error.self) { try infinite.jsonData() }
    #expect(error?.path == "limits.real")
    #expect(throws: JSON.Error.self) { try infinite.json }
  }

  @Test("renamed coding keys and keys that need escaping round-trip, and errors quote them")
  func escapedKeys() throws {
    struct Box: JSONCodable, Equatable { var labelled: Labelled }
    let value = Box(labelled: Labelled(givenName: "Ada", odd: 7))
    let text = try value.jsonString()
    #expect(text.contains(#""quote\"and\\slash\n":7"#))
    #expect(try Box(jsonString: text) == value)
    let bad = #"{"labelled": {"given name": "Ada", "quote\"and\\slash\n": "7"}}"#
    guard case .failure(let error) = agreedDecoding(Box.self, bad) else {
      Issue.record("decoded")
      return
    }
    #expect(error.path == #"labelled["quote\"and\\slash\n"]"#)
  }

  @Test("absent, null and nested optionals: nil where Codable says nil, .ignoreIfNull works")
  func optionals() throws {
    struct Box: JSONCodable, Equatable {
      var once: Price?
      var twice: Price??
      var list: [Price?]
      var quiet: Price?
      static func specificOptions() -> [String: SpecificOption] { ["quiet": .ignoreIfNull] }
    }
    let value = try #require(
      try agreedDecoding(Box.self, #"{"twice": null, "list": [null, {"amount": 1}]}"#)?.get())
    #expect(value.once == nil && value.quiet == nil)
    #expect(value.twice == .none)  // null for Price?? is the outer nil
    #expect(value.list == [nil, Price(1)])
    #expect(
      try value.json == [
        "once": nil, "twice": nil, "list": [nil, ["amount": 1, "currency": "EUR"]],
      ])
    #expect(
      try value.jsonString()
        == #"{"once":null,"twice":null,"list":[null,{"amount":1,"currency":"EUR"}]}"#)
    #expect(
      try value.jsonString(options: [.omitNulls])
        == #"{"list":[null,{"amount":1,"currency":"EUR"}]}"#)
  }

  @Test("a type that is JSONCodable and Codable maps by AutoMap, also inside Codable values")
  func jsonCodableWins() throws {
    let holder = EnvelopeHolder(
      envelope: Envelope(both: Both(x: 1), when: Date(timeIntervalSince1970: 0)))
    let json = try holder.json
    #expect(json == ["envelope": ["both": ["ex": 1], "when": "1970-01-01T00:00:00Z"]])
    #expect(try EnvelopeHolder(jsonString: holder.jsonString()) == holder)
    // Foundation still sees the synthesized Codable of Both.
    let foundation = try JSONEncoder().encode(Both(x: 1))
    #expect(String(decoding: foundation, as: UTF8.self) == #"{"x":1}"#)
  }

  @Test("deep Codable values are refused with an error; reference cycles too")
  func depthAndCycles() throws {
    var json: JSON = ["next": nil]
    for _ in 0..<(JSON.maximumDepth + 10) { json = ["next": json] }
    let error = #expect(throws: JSON.Error.self) { try ChainHolder(decode: ["chain": json]) }
    #expect(error?.kind == .tooDeep(limit: JSON.maximumDepth))
    #expect(error?.path.hasPrefix("chain.next.next") == true)

    let cycle = Chain()
    cycle.next = cycle
    defer { cycle.next = nil }
    let holder = ChainHolder(chain: cycle)
    let encodeError = #expect(throws: JSON.Error.self) { try holder.jsonData() }
    #expect(encodeError?.kind == .unencodable)
    #expect(encodeError?.message.contains("reference cycle") == true)
    #expect(throws: JSON.Error.self) { try holder.json }
  }

  @Test("options that AutoMap applies around a Codable value: defaults and indexes")
  func options() throws {
    struct Box: JSONCodable, Equatable {
      var price = Price(0)
      var backup: Price
      static func specificOptions() -> [String: SpecificOption] {
        ["price": [.index(["data", "price"]), .defaultValue(Price(5))], "backup": "b"]
      }
    }
    let value = try #require(try agreedDecoding(Box.self, #"{"b": {"amount": 2}}"#)?.get())
    #expect(value == Box(price: Price(5), backup: Price(2)))
    #expect(
      try value.json == [
        "data": ["price": ["amount": 5, "currency": "EUR"]], "b": ["amount": 2, "currency": "EUR"],
      ])
    let unusable = try Box(jsonString: #"{"data": {"price": {"amount": "x"}}, "b": {"amount": 2}}"#)
    #expect(unusable.price == Price(5))  // an unusable value takes the default
  }

  @Test("update(from:) replaces Codable properties; options that look inside are refused")
  func updateAndRefusals() throws {
    var shop = try Shop(jsonString: Self.shop)
    var order = shop.orders[0]
    try order.update(from: ["total": ["amount": 3, "currency": "GBP"], "discount": nil])
    #expect(order.total == Price(3, "GBP") && order.discount == nil && order.lines == [Price(10)])
    #expect(throws: JSON.Error.self) { try order.update(from: ["total": ["amount": "x"]]) }
    #expect(order.total == Price(3, "GBP"))  // a failed update changes nothing
    shop.orders[0] = order
    #expect(try Shop(jsonString: shop.jsonString()) == shop)

    struct Lossy: JSONDecodable {
      var prices: [Price] = []
      static func specificOptions() -> [String: SpecificOption] { ["prices": .lossy] }
    }
    let error = #expect(throws: JSON.Error.self) { try Lossy(jsonString: #"{"prices": []}"#) }
    #expect(error?.kind == .invalidModel)
    #expect(error?.message.contains(".lossy") == true)
  }
}
