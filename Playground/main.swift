import AutoMap
import Foundation

// A guided tour of AutoMap. Each step shows a statement and its result; the tour checks every
// result and exits non-zero if one differs from what is shown here.

var tour = Tour()

tour.section("1. The JSON value")
let json: JSON = [
  "data": ["users": [["name": "Ada", "id": 1], ["name": "Alan", "id": 2]]], "ok": true,
]
tour.step(#"json["data", "users", 1, "name"]"#, "\"Alan\"") { json["data", "users", 1, "name"] }
tour.step(#"String(json["data", "users", 0, "name"])"#, "Ada") {
  String(json["data", "users", 0, "name"]) as Any
}
tour.step(
  #"try JSON(jsonObject: ["admin": NSNumber(value: true), "id": NSNumber(value: 1)]).jsonString()"#,
  #"{"admin":true,"id":1}"#
) {
  try JSON(jsonObject: ["admin": NSNumber(value: true), "id": NSNumber(value: 1)]).jsonString()
}
tour.step(#"Int(json["data", "users", 5, "id"])   // missing: nil, never a trap"#, "nil") {
  Int(json["data", "users", 5, "id"]) as Any
}
tour.step(
  #"try Int(decode: json["data", "users", 5, "id"])"#,
  "throws at data.users[5]: index 5 out of range (array of 2)"
) {
  try Int(decode: json["data", "users", 5, "id"])
}
var built: JSON = nil
tour.step(
  #"built["a", "b", 1] = 3; built   // paths create what is missing"#, #"{"a":{"b":[null,3]}}"#
) {
  built["a", "b", 1] = 3
  return built
}
tour.step(
  #"try JSON(jsonString: "[1, 2.5, 18446744073709551615]")"#, "[1,2.5,18446744073709551615]"
) {
  try JSON(jsonString: "[1, 2.5, 18446744073709551615]")
}
tour.step(
  ##"try JSON(jsonString: #"{"b": 1, "a": 2}"#) == ["a": 2, "b": 1]   // order-blind"##, "true"
) {
  try JSON(jsonString: #"{"b": 1, "a": 2}"#) == ["a": 2, "b": 1]
}
tour.step(
  #"try JSON(jsonString: "{\"a\": [1,]}")"#,
  "throws malformed JSON at byte 9 (line 1, column 10): expected a JSON value, found ']'"
) {
  try JSON(jsonString: "{\"a\": [1,]}")
}
tour.step(
  "try json[\"data\", \"users\", 0].jsonString(options: [.sortedKeys])", #"{"id":1,"name":"Ada"}"#
) {
  try json["data", "users", 0].jsonString(options: [.sortedKeys])
}

tour.section("2. Models with no code")
tour.note(
  "struct User: JSONCodable { let id: Int; let name: String; let email: String?; let tags: [String] }"
)
let userText = #"{"id": 7, "name": "Ada", "tags": ["math"]}"#
tour.step("let user = try User(jsonString: userText); user.name", "Ada") {
  try User(jsonString: userText).name
}
tour.step("user.email   // absent optional", "nil") { try User(jsonString: userText).email as Any }
tour.step("try user.jsonString()", #"{"id":7,"name":"Ada","email":null,"tags":["math"]}"#) {
  try User(jsonString: userText).jsonString()
}
tour.step(#"try [User](jsonString: "[\(userText)]").count"#, "1") {
  try [User](jsonString: "[\(userText)]").count
}
tour.step(#"User(json["nothing"])   // nil on any failure"#, "nil") { User(json["nothing"]) as Any }

tour.section("3. Structs, classes with inheritance, enums, generics")
tour.step(
  ##"try Preferences(jsonString: #"{"fontSize": 14}"#)   // DefaultInitable keeps defaults"##,
  "light 14"
) {
  let preferences = try Preferences(jsonString: #"{"fontSize": 14}"#)
  return "\(preferences.theme) \(preferences.fontSize)"
}
tour.step(
  ##"try Bike(jsonString: #"{"manufacturer": "Brompton", "gears": 6}"#)"##,
  "Brompton, 2 wheels, 6 gears"
) {
  let bike = try Bike(jsonString: #"{"manufacturer": "Brompton", "gears": 6}"#)
  return "\(bike.maker), \(bike.wheels) wheels, \(bike.gears) gears"
}
tour.step(
  ##"try [Status](jsonString: #"["active", "banned"]"#)"##,
  "[Playground.Status.active, Playground.Status.banned]"
) {
  try [Status](jsonString: #"["active", "banned"]"#)
}
tour.step(#"try Priority(jsonString: "2")"#, "throws at the root: 2 is not a raw value of Priority")
{ try Priority(jsonString: "2") }
tour.step(
  ##"try Page<Status>(jsonString: #"{"items": ["banned"], "next": 2}"#).jsonString()"##,
  #"{"items":["banned"],"next":2}"#
) {
  try Page<Status>(jsonString: #"{"items": ["banned"], "next": 2}"#).jsonString()
}
tour.step(
  ##"try Forecast(jsonString: #"{"city": "Oslo", "high": {"f": 50}}"#).high.celsius   // hand-written init(decode:)"##,
  "10.0"
) {
  try Forecast(jsonString: #"{"city": "Oslo", "high": {"f": 50}}"#).high.celsius
}

tour.section("4. Options")
let memberText = #"""
  {"member_id": 42, "address": {"city": "Lyon"}, "nick": "mo", "status": "unknown",
   "friends": null, "homepage": "example.org", "session": "s3cr3t", "lat": 45.76, "lng": 4.84}
  """#
let member = try Member(jsonString: memberText)
tour.step(#"member.id                 // "id": "member_id""#, "42") { member.id }
tour.step(#"member.city               // .index(["address", "city"])"#, "Lyon") { member.city }
tour.step(#"member.nickname           // .alternativeIndex("nick")"#, "mo") { member.nickname }
tour.step(#"member.status             // .defaultValue(Status.active) for "unknown""#, "active") {
  member.status
}
tour.step(#"member.friends            // .nonNil for null"#, "[]") { member.friends }
tour.step(#"member.homepage           // .transform(web)"#, "https://example.org") {
  member.homepage as Any
}
tour.step(#"member.session            // .ignore"#, "nil") { member.session as Any }
tour.step(#"member.location.lat       // .index([]) flattens"#, "45.76") { member.location.lat }
tour.step(
  "try member.jsonString(options: .sortedKeys)   // bio is null: .ignoreIfNull leaves it out",
  #"{"address":{"city":"Lyon"},"friends":[],"homepage":"example.org","lat":45.76,"lng":4.84,"member_id":42,"nickname":"mo","status":"active"}"#
) {
  try member.jsonString(options: .sortedKeys)
}

tour.section("5. Transforms and dates")
let eventText = #"{"title": "Launch", "start": "2024-05-01T12:30:00.250Z", "end": 1714570200}"#
let event = try Event(jsonString: eventText)
tour.step("event.start.timeIntervalSince1970   // ISO 8601 by default", "1714566600.25") {
  event.start.timeIntervalSince1970
}
tour.step("event.end.timeIntervalSince1970     // DateTransform.secondsSince1970", "1714570200.0") {
  event.end.timeIntervalSince1970
}
tour.step(
  "try event.jsonString()",
  #"{"title":"Launch","start":"2024-05-01T12:30:00.250Z","end":1714570200.0}"#
) {
  try event.jsonString()
}

tour.section("6. Errors say what and where")
tour.step(
  ##"try [User](jsonString: #"[{"id": 1, "name": "A", "tags": []}, {"id": "2", "name": "B", "tags": []}]"#)"##,
  #"throws at [1].id: expected Int, found string "2""#
) {
  try [User](
    jsonString: #"[{"id": 1, "name": "A", "tags": []}, {"id": "2", "name": "B", "tags": []}]"#)
}
tour.step(
  ##"try User(jsonString: #"{"id": 1, "tags": []}"#)"##,
  #"throws at name: missing key "name" for User.name (String)"#
) {
  try User(jsonString: #"{"id": 1, "tags": []}"#)
}
tour.step(
  #"try User(jsonString: "{\"id\": 1,\n \"name\": \"x\" \"tags\": []}")"#,
  "throws malformed JSON at byte 23 (line 2, column 14): expected ',' or '}' after object member, found '\"'"
) {
  try User(jsonString: "{\"id\": 1,\n \"name\": \"x\" \"tags\": []}")
}

tour.section("7. Lossy and lossless values")
tour.step(
  ##"try Feed(jsonString: #"{"items": [{"id": 1}, {"id": "x"}, {}], "views": "1200", "title": 42}"#)"##,
  "1 item, 1200 views, title 42"
) {
  let feed = try Feed(
    jsonString: #"{"items": [{"id": 1}, {"id": "x"}, {}], "views": "1200", "title": 42}"#)
  return "\(feed.items.count) item, \(feed.views) views, title \(feed.title)"
}
tour.step(
  ##"try Feed(jsonString: #"{"items": [], "views": "12abc", "title": ""}"#)   // lossless is not lossy"##,
  #"throws at views: expected Int, found string "12abc""#
) {
  try Feed(jsonString: #"{"items": [], "views": "12abc", "title": ""}"#)
}

tour.section("8. Key styles")
tour.note(
  "struct GitHubUser: JSONCodable { static let keyStyle = JSON.KeyStyle.snakeCase; var avatarURL: String … }"
)
tour.step(
  ##"try GitHubUser(jsonString: #"{"login": "ada", "avatar_url": "a.png", "public_repos": 3}"#).avatarURL"##,
  "a.png"
) {
  try GitHubUser(jsonString: #"{"login": "ada", "avatar_url": "a.png", "public_repos": 3}"#)
    .avatarURL
}
tour.step(
  ##"try User(jsonString: #"{"ID": 1, "NAME": "Ada", "TAGS": []}"#, keyStyle: .caseInsensitive).name"##,
  "Ada"
) {
  try User(jsonString: #"{"ID": 1, "NAME": "Ada", "TAGS": []}"#, keyStyle: .caseInsensitive).name
}
tour.step(
  "try Preferences().jsonString(keyStyle: .upperCamelCase)", #"{"Theme":"light","FontSize":12}"#
) {
  try Preferences().jsonString(keyStyle: .upperCamelCase)
}
tour.step(
  "try Preferences().jsonString(keyStyle: .kebabCase)", #"{"theme":"light","font-size":12}"#
) {
  try Preferences().jsonString(keyStyle: .kebabCase)
}
tour.step(
  "try Preferences().jsonString(keyStyle: .screamingSnakeCase)",
  #"{"THEME":"light","FONT_SIZE":12}"#
) {
  try Preferences().jsonString(keyStyle: .screamingSnakeCase)
}

tour.section("9. Validation, empty strings, designated paths, updates")
tour.step(
  ##"try Signup(jsonString: #"{"email": "ada@example.org", "age": 36, "referrer": ""}"#).referrer   // .emptyAsNil"##,
  "nil"
) {
  try Signup(jsonString: #"{"email": "ada@example.org", "age": 36, "referrer": ""}"#).referrer
    as Any
}
tour.step(
  ##"try [Signup](jsonString: #"[{"email": "nope", "age": 1}]"#)   // didDecode() validates"##,
  "throws at [0]: email must contain @"
) {
  try [Signup](jsonString: #"[{"email": "nope", "age": 1}]"#)
}
tour.step(
  ##"try [User](jsonData: data, at: ["data", "users"]).map(\.name)   // only that value is mapped"##,
  #"["Ada", "Alan"]"#
) {
  let data = Data(
    #"{"meta": {"any": [1]}, "data": {"users": [{"id": 1, "name": "Ada", "tags": []}, {"id": 2, "name": "Alan", "tags": []}]}}"#
      .utf8)
  return try [User](jsonData: data, at: ["data", "users"]).map(\.name)
}
var preferences = Preferences()
tour.step(
  #"try preferences.update(from: ["fontSize": 16])   // only the keys present change"#, "light 16"
) {
  try preferences.update(from: ["fontSize": 16])
  return "\(preferences.theme) \(preferences.fontSize)"
}

tour.section("10. Encoding policies, one-way keys, enums by name")
tour.step(
  #"try Draft().jsonString(options: [.omitNulls])   // .ignoreIfEmpty tags, no nulls"#,
  #"{"title":""}"#
) {
  try Draft().jsonString(options: [.omitNulls])
}
tour.step(
  ##"try Login(jsonString: #"{"user_name": "ada", "token": "t0k3n"}"#).jsonString()   // renamed key, token read-only"##,
  #"{"username":"ada"}"#
) {
  try Login(jsonString: #"{"user_name": "ada", "token": "t0k3n"}"#).jsonString()
}
tour.step(
  ##"try [Weekday](jsonString: #"["monday", "wednesday"]"#).count   // CaseIterable: by case name"##,
  "2"
) {
  try [Weekday](jsonString: #"["monday", "wednesday"]"#).count
}
tour.step(
  ##"try Weekday(jsonString: #""sunday""#)"##,
  #"throws at the root: "sunday" is not a case of Weekday (monday, tuesday, wednesday)"#
) {
  try Weekday(jsonString: #""sunday""#)
}

tour.section("11. What reflection refuses, and what it leaves alone")
tour.note("final class Player { weak var team: Team?; @Percent var volume = 50; var name = \"\" }")
tour.step(
  ##"try Player(jsonString: #"{"name": "Ada", "volume": 250, "team": 1}"#).volume   // through the wrapper"##,
  "100"
) {
  try Player(jsonString: #"{"name": "Ada", "volume": 250, "team": 1}"#).volume
}
tour.step(
  "try Player().jsonString()   // weak storage is left out; no _volume key",
  #"{"volume":50,"name":""}"#
) {
  try Player().jsonString()
}
tour.step(
  "try Move(jsonString: \"{}\")   // an enum with payloads is refused, never built",
  "throws at the root: Move cannot be decoded by reflection: it is an enum, and only structs and classes"
    + " have stored properties to map. Give an enum a raw value, make it CaseIterable or Codable, or write init(decode:)"
) {
  try Move(jsonString: "{}")
}
tour.step(
  "let a = Node(); a.next = a; try a.jsonString()   // a cycle is an error, not a crash",
  "throws nesting deeper than 512 objects and arrays: is there a reference cycle? (path next.next.next…)"
) {
  let node = Node()
  node.next = node
  defer { node.next = nil }
  do {
    return try node.jsonString()
  } catch let error as JSON.Error {
    throw PlaygroundMessage("\(error.message) (path \(error.path.prefix(14))…)")
  }
}

tour.section("12. Resilient enums: a fallback case and aliases")
tour.note("enum OrderStatus: String, JSONCodable, JSONFallbackCase, JSONCaseAliases {")
tour.note("  case placed, shipped, cancelled, unknown")
tour.note("  static let fallbackCase = OrderStatus.unknown")
tour.note("  static let aliases: [OrderStatus: [String]] = [.cancelled: [\"canceled\"]] }")
tour.step(
  ##"try [OrderStatus](jsonString: #"["shipped", "returned", "canceled"]"#)"##,
  "[Playground.OrderStatus.shipped, Playground.OrderStatus.unknown, Playground.OrderStatus.cancelled]"
) {
  try [OrderStatus](jsonString: #"["shipped", "returned", "canceled"]"#)
}
tour.step(
  "try [OrderStatus.unknown, .cancelled].jsonString()   // each case writes its raw value",
  #"["unknown","cancelled"]"#
) {
  try [OrderStatus.unknown, .cancelled].jsonString()
}
tour.step(
  "try OrderStatus(jsonString: \"7\")   // the wrong JSON type is still an error",
  "throws at the root: expected String, found number 7"
) {
  try OrderStatus(jsonString: "7")
}

tour.section("13. Dictionaries keyed by Int, UUID and enums")
let stockText = #"{"byShelf": {"12": "tea", "3": "coffee"}, "byWarehouse": {"north": 4}}"#
tour.step("let stock = try Stock(jsonString: stockText); stock.byShelf[12]", "tea") {
  try Stock(jsonString: stockText).byShelf[12] ?? "nil"
}
tour.step(
  "try stock.jsonString(options: [.sortedKeys])",
  #"{"byShelf":{"12":"tea","3":"coffee"},"byWarehouse":{"north":4}}"#
) {
  try Stock(jsonString: stockText).jsonString(options: [.sortedKeys])
}
tour.step(
  ##"try [Int: String](jsonString: #"{"01": "x"}"#)   // only the form Int keys are written in"##,
  #"throws at ["01"]: expected an Int key, found "01""#
) {
  try [Int: String](jsonString: #"{"01": "x"}"#)
}

// @Observable needs macOS 14 / iOS 17, Int128 macOS 15 / iOS 18: above AutoMap's minimums.
if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
  tour.section("14. Modern models: @Observable, Int128")
  tour.note(
    "@Observable final class Reader: JSONCodable, DefaultInitable { var name = \"\"; var pagesRead = 0 }"
  )
  tour.step(
    ##"try Reader(jsonString: #"{"name": "Ada", "pagesRead": 12}"#).jsonString()"##,
    #"{"name":"Ada","pagesRead":12}"#
  ) {
    try Reader(jsonString: #"{"name": "Ada", "pagesRead": 12}"#).jsonString()
  }
  let ledgerText =
    #"{"total": 340282366920938463463374607431768211455, "balance": -170141183460469231731687303715884105728}"#
  tour.step(
    "try Ledger(jsonString: ledgerText).total == UInt128.max   // exact, never through Double",
    "true"
  ) {
    try Ledger(jsonString: ledgerText).total == UInt128.max
  }
} else {
  tour.section("14. Modern models: @Observable, Int128 (macOS 15, iOS 18 and later)")
}

tour.section("15. Codable, both ways")
tour.note(
  "struct Money: Codable { var amount: Int; var currency: String }   // from another package")
tour.note(
  "struct Invoice: JSONCodable { keyStyle = .snakeCase; var invoiceID: Int; var lineTotals: [Money]; var grandTotal: Money }"
)
let invoiceText =
  #"{"invoice_id": 7, "line_totals": [{"amount": 5, "currency": "EUR"}], "grand_total": {"amount": 5, "currency": "EUR"}}"#
tour.step("try Invoice(jsonString: invoiceText).lineTotals[0].amount   // Money's own Codable", "5")
{
  try Invoice(jsonString: invoiceText).lineTotals[0].amount
}
tour.step(
  ##"try Invoice(jsonString: #"{"invoice_id": 7, "line_totals": [], "grand_total": {"amount": "5"}}"#)"##,
  #"throws at grand_total.amount: expected Int, found string "5""#
) {
  try Invoice(jsonString: #"{"invoice_id": 7, "line_totals": [], "grand_total": {"amount": "5"}}"#)
}
tour.step(
  "try Invoice(jsonString: invoiceText).jsonString()",
  #"{"invoice_id":7,"line_totals":[{"amount":5,"currency":"EUR"}],"grand_total":{"amount":5,"currency":"EUR"}}"#
) {
  try Invoice(jsonString: invoiceText).jsonString()
}
tour.note(
  "struct Profile: CodableByMapping { var userID: Int; var displayName: String }   // \"userID\": \"user_id\""
)
tour.step(
  "JSONEncoder (.sortedKeys) encodes Profile(userID: 1, displayName: \"Ada\") with AutoMap's mapping",
  #"{"displayName":"Ada","user_id":1}"#
) {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  return String(decoding: try encoder.encode(Profile(userID: 1, displayName: "Ada")), as: UTF8.self)
}
tour.step(
  ##"try JSONDecoder().decode(Profile.self, from: Data(#"{"user_id": 2, "displayName": "Alan"}"#.utf8)).userID"##,
  "2"
) {
  try JSONDecoder().decode(Profile.self, from: Data(#"{"user_id": 2, "displayName": "Alan"}"#.utf8))
    .userID
}
tour.step(
  #"try JSONDecoder().decode(JSON.self, from: Data("[18446744073709551615, 2.5, null]".utf8))   // JSON is Codable"#,
  "[18446744073709551615,2.5,null]"
) {
  try JSONDecoder().decode(JSON.self, from: Data("[18446744073709551615, 2.5, null]".utf8))
}

tour.note(
  "enum Shape: JSONCodable, Codable { case circle(radius: Double), rect(width:height:), none; caseLayout = .internalTag(\"type\"); schemaCases = [\"circle\", \"rect\", \"none\"] }"
)
tour.step(
  "try [Shape.circle(radius: 1), .none].jsonString()",
  #"[{"type":"circle","radius":1.0},{"type":"none"}]"#
) {
  try [Shape.circle(radius: 1), .none].jsonString()
}
tour.step(
  ##"try Shape(jsonString: #"{"type": "rect", "width": 2}"#)"##,
  #"throws at height: missing key "height" (in Shape.rect)"#
) {
  try Shape(jsonString: #"{"type": "rect", "width": 2}"#)
}

tour.section("17. Class hierarchies: the base chooses the subclass")
tour.note(
  "class Animal: JSONCodable, DefaultInitable, JSONPolymorphic { var name = \"\"; required init() {}"
)
tour.note(
  "  static let subclasses: [String: Animal.Type] = [\"dog\": Dog.self, \"cat\": Cat.self] }")
tour.note(
  "final class Dog: Animal { var barks = true };  final class Cat: Animal { var lives = 9 }")
let petsText = #"[{"type": "dog", "name": "Rex", "barks": false}, {"type": "cat", "name": "Tom"}]"#
tour.step(
  "let pets = try [Animal](jsonString: petsText); pets.map { type(of: $0) }",
  "[Playground.Dog, Playground.Cat]"
) {
  try [Animal](jsonString: petsText).map { type(of: $0) }
}
tour.step(
  "try pets.jsonString()   // each its own fields, its discriminator first",
  #"[{"type":"dog","name":"Rex","barks":false},{"type":"cat","name":"Tom","lives":9}]"#
) {
  try [Animal](jsonString: petsText).jsonString()
}
tour.step(
  ##"try Animal(jsonString: #"{"type": "parrot"}"#)"##,
  #"throws at type: unknown Animal discriminator string "parrot": expected one of "cat", "dog""#
) {
  try Animal(jsonString: #"{"type": "parrot"}"#)
}

tour.section("18. Streams")
tour.note("struct LogEntry: JSONCodable { var level: String; var message: String }")
tour.note("Values one at a time, in memory bounded by the largest one: JSON Lines or one array.")
let logPath = FileManager.default.temporaryDirectory
  .appendingPathComponent("automap-tour-\(ProcessInfo.processInfo.processIdentifier).jsonl").path
tour.step(
  "let writer = try JSONStreamWriter(toFile: logPath, format: .lines); try writer.write(contentsOf: entries); try writer.finish()",
  #"{"level":"info","message":"started"}\#n{"level":"warn","message":"disk 91% full"}\#n"#
) {
  let writer = try JSONStreamWriter(toFile: logPath, format: .lines)
  try writer.write(contentsOf: [
    LogEntry(level: "info", message: "started"), LogEntry(level: "warn", message: "disk 91% full"),
  ])
  try writer.finish()
  return try String(contentsOfFile: logPath, encoding: .utf8)
}
tour.step(
  "try SyncJSONStream(of: LogEntry.self, contentsOfFile: logPath, format: .lines).map { try $0.get().message }",
  #"["started", "disk 91% full"]"#
) {
  try SyncJSONStream(of: LogEntry.self, contentsOfFile: logPath, format: .lines).map {
    try $0.get().message
  }
}
try? FileManager.default.removeItem(atPath: logPath)
tour.note(
  "for try await entry in JSONStream(of: LogEntry.self, contentsOf: url, format: .lines) { … }   // async, cancellable"
)
let badLog = #"{"level": "info", "message": "a"}"# + "\n\n" + #"{"level": 5, "message": "b"}"#
tour.step(
  "var lines = SyncJSONStream(of: LogEntry.self, data: Data(badLog.utf8), format: .lines).makeIterator(); while try lines.nextElement() != nil {}",
  "throws at [1].level (line 3): expected String, found number 5"
) {
  var lines = SyncJSONStream(of: LogEntry.self, data: Data(badLog.utf8), format: .lines)
    .makeIterator()
  while try lines.nextElement() != nil {}
  return "no error"
}
tour.step(
  "options.skipsBadElements = true: the same lines give [values.count, iterator.skippedCount]",
  "[1, 1]"
) {
  var options = JSON.StreamOptions()
  options.skipsBadElements = true
  var lines = SyncJSONStream(
    of: LogEntry.self, data: Data(badLog.utf8), format: .lines, options: options
  )
  .makeIterator()
  var count = 0
  while try lines.nextElement() != nil { count += 1 }
  return [count, lines.skippedCount]
}
tour.step(
  #"try SyncJSONStream(of: Int.self, data: Data("[1, 2, 3]".utf8)).map { try $0.get() }"#,
  "[1, 2, 3]"
) {
  try SyncJSONStream(of: Int.self, data: Data("[1, 2, 3]".utf8)).map { try $0.get() }
}

tour.section("19. Per-call configuration")
tour.note("let legacy = JSON.Configuration(dateTransform: .secondsSince1970, keyStyle: .snakeCase)")
tour.note("struct Shipment: JSONCodable { var trackingCode: String; var shippedAt: Date }")
let legacy = JSON.Configuration(dateTransform: .secondsSince1970, keyStyle: .snakeCase)
let shipmentText = #"{"tracking_code": "Z1", "shipped_at": 1714566600}"#
tour.step(
  "try Shipment(jsonString: shipmentText, configuration: legacy).shippedAt",
  "2024-05-01 12:30:00 +0000"
) {
  try Shipment(jsonString: shipmentText, configuration: legacy).shippedAt
}
tour.step(
  "try Shipment(jsonString: shipmentText, configuration: legacy).jsonString(configuration: legacy)",
  #"{"tracking_code":"Z1","shipped_at":1714566600.0}"#
) {
  try Shipment(jsonString: shipmentText, configuration: legacy).jsonString(configuration: legacy)
}
tour.step(
  "try Shipment(jsonString: shipmentText)   // no configuration: the models' keys, ISO 8601",
  #"throws at trackingCode: missing key "trackingCode" for Shipment.trackingCode (String)"#
) {
  try Shipment(jsonString: shipmentText)
}
tour.step(
  "try JSON.withConfiguration(legacy) { try Shipment(jsonString: shipmentText).trackingCode }",
  "Z1"
) {
  try JSON.withConfiguration(legacy) { try Shipment(jsonString: shipmentText).trackingCode }
}
let anyDate = JSON.Configuration(dateTransform: .oneOf(.iso8601, .millisecondsSince1970, .rfc1123))
tour.note(
  "let anyDate = JSON.Configuration(dateTransform: .oneOf(.iso8601, .millisecondsSince1970, .rfc1123))"
)
tour.step(
  ##"try [Date](jsonString: #"["2024-05-01T12:30:00Z", 1714566600000, "Wed, 01 May 2024 12:30:00 GMT"]"#, configuration: anyDate)"##,
  "[2024-05-01 12:30:00 +0000, 2024-05-01 12:30:00 +0000, 2024-05-01 12:30:00 +0000]"
) {
  try [Date](
    jsonString: #"["2024-05-01T12:30:00Z", 1714566600000, "Wed, 01 May 2024 12:30:00 GMT"]"#,
    configuration: anyDate)
}
tour.step(
  "try [mayFirst].jsonString(configuration: anyDate)   // the first format writes",
  #"["2024-05-01T12:30:00Z"]"#
) {
  try [Date(timeIntervalSince1970: 1_714_566_600)].jsonString(configuration: anyDate)
}
let lenient = JSON.Configuration(nonFiniteNumbers: .strings())
tour.note(
  "let lenient = JSON.Configuration(nonFiniteNumbers: .strings())   // \"NaN\", \"Infinity\", \"-Infinity\""
)
tour.step(
  ##"try [Double](jsonString: #"["NaN", "-Infinity", 1.5]"#, configuration: lenient)"##,
  "[nan, -inf, 1.5]"
) {
  try [Double](jsonString: #"["NaN", "-Infinity", 1.5]"#, configuration: lenient)
}
tour.step("try [Double.infinity].jsonString(configuration: lenient)", #"["Infinity"]"#) {
  try [Double.infinity].jsonString(configuration: lenient)
}
tour.step(
  ##"try [Double](jsonString: #"["NaN"]"#)   // not opted in"##,
  #"throws at [0]: expected Double, found string "NaN" (non-finite numbers are read from strings only with JSON.Configuration's nonFiniteNumbers = .strings())"#
) {
  try [Double](jsonString: #"["NaN"]"#)
}
tour.step(
  #"try Data([0xCA, 0xFE]).jsonString(configuration: .init(dataEncoding: .hex))"#, #""cafe""#
) {
  try Data([0xCA, 0xFE]).jsonString(configuration: .init(dataEncoding: .hex))
}
tour.note(
  "struct WebhookDelivery: JSONCodable { keyStyle = .snakeCase; var eventType: String; var requestID: String"
)
tour.note(
  "  var payload: ChargePayload;  options: [\"payload\": .embeddedJSON, \"requestID\": .keyStyle(.kebabCase)] }"
)
let deliveryText =
  #"{"event_type": "paid", "request-id": "r1", "payload": "{\"id\": 7, \"amount\": 5.5}"}"#
tour.step(
  "try WebhookDelivery(jsonString: deliveryText).payload.amount", "5.5"
) {
  try WebhookDelivery(jsonString: deliveryText).payload.amount
}
tour.step(
  "try WebhookDelivery(jsonString: deliveryText).jsonString()",
  #"{"event_type":"paid","request-id":"r1","payload":"{\"id\":7,\"amount\":5.5}"}"#
) {
  try WebhookDelivery(jsonString: deliveryText).jsonString()
}
tour.step(
  ##"try WebhookDelivery(jsonString: #"{"event_type": "paid", "request-id": "r1", "payload": "{\"id\": 7,"}"#)"##,
  "throws at payload: the string holds malformed JSON: malformed JSON at byte 9 (line 1, column 10): expected a string key, found end of input"
) {
  try WebhookDelivery(
    jsonString: #"{"event_type": "paid", "request-id": "r1", "payload": "{\"id\": 7,"}"#)
}

tour.section("20. Untagged enums: the payload alone")
tour.note("enum Setting: JSONCodable, Codable { case flag(Bool), number(Int), range(Int, Int),")
tour.note("  named(name: String, value: Int), off, text(String)")
tour.note(
  "  static let caseLayout = JSON.CaseLayout.untagged([\"flag\", \"number\", \"range\", \"named\", \"off\", \"text\"]) }"
)
let settingsText = #"[true, 3, [1, 5], {"name": "x", "value": 1}, "off", "hi"]"#
tour.step(
  "try [Setting](jsonString: settingsText)   // the first listed case that maps",
  #"[Playground.Setting.flag(true), Playground.Setting.number(3), Playground.Setting.range(1, 5), Playground.Setting.named(name: "x", value: 1), Playground.Setting.off, Playground.Setting.text("hi")]"#
) {
  try [Setting](jsonString: settingsText)
}
tour.step(
  "try [Setting](jsonString: settingsText).jsonString()",
  #"[true,3,[1,5],{"name":"x","value":1},"off","hi"]"#
) {
  try [Setting](jsonString: settingsText).jsonString()
}
tour.step(
  #"try Setting(jsonString: "[1, 2, 3]")   // each case, and why it did not map"#,
  "throws at the root: no case of Setting matches array of 3, tried flag: expected Bool, found array of 3;"
    + " number: expected one value; range: expected an array of 2 values; named: missing key \"name\";"
    + " off: expected the string \"off\"; text: expected String, found array of 3"
) {
  try Setting(jsonString: "[1, 2, 3]")
}

tour.section("21. Protocol types chosen by a discriminator")
tour.note("protocol Figure: JSONCodable { var area: Double { get } }")
tour.note("struct Circle: Figure { var radius = 0.0 };  struct Square: Figure { var side = 0.0 }")
tour.note("struct Drawing: JSONCodable { var figures: [any Figure] }")
tour.step(
  #"try JSON.registerPolymorphic((any Figure).self, discriminator: "kind", types: ["circle": Circle.self, "square": Square.self])"#,
  "()"
) {
  try JSON.registerPolymorphic(
    (any Figure).self, discriminator: "kind", types: ["circle": Circle.self, "square": Square.self])
}
let drawingText = #"{"figures": [{"kind": "square", "side": 2}, {"kind": "circle", "radius": 1}]}"#
tour.step(#"try Drawing(jsonString: drawingText).figures.map(\.area)"#, "[4.0, 3.0]") {
  try Drawing(jsonString: drawingText).figures.map(\.area)
}
tour.step(
  "try Drawing(jsonString: drawingText).jsonString()   // each its own fields, its discriminator first",
  #"{"figures":[{"kind":"square","side":2.0},{"kind":"circle","radius":1.0}]}"#
) {
  try Drawing(jsonString: drawingText).jsonString()
}
tour.step(
  ##"try Drawing(jsonString: #"{"figures": [{"kind": "hexagon"}]}"#)"##,
  #"throws at figures[0].kind: unknown any Figure discriminator string "hexagon": expected one of "circle", "square""#
) {
  try Drawing(jsonString: #"{"figures": [{"kind": "hexagon"}]}"#)
}
tour.step(
  ##"try JSON.decode([any Figure].self, fromJSONData: Data(#"[{"kind": "circle", "radius": 2}]"#.utf8))[0].area   // at the top level"##,
  "12.0"
) {
  try JSON.decode(
    [any Figure].self, fromJSONData: Data(#"[{"kind": "circle", "radius": 2}]"#.utf8))[0]
    .area
}
tour.step(
  #"try JSON.jsonData([Square(side: 1)], as: [any Figure].self)   // the type given: Swift would open one value"#,
  #"[{"kind":"square","side":1.0}]"#
) {
  String(decoding: try JSON.jsonData([Square(side: 1)], as: [any Figure].self), as: UTF8.self)
}

tour.section("22. update(from:) keeps an object's class")
tour.step(
  #"let rex = Dog(); try rex.update(from: ["name": "Rex", "barks": false]); rex.name"#, "Rex"
) {
  let rex = Dog()
  try rex.update(from: ["name": "Rex", "barks": false])
  return rex.name
}
tour.step(
  #"try Dog().update(from: ["type": "cat", "lives": 3])   // a dog stays a dog"#,
  #"throws at type: discriminator "cat" chooses Cat, but update(from:) cannot change this Dog into another class: decode a new value instead"#
) {
  try Dog().update(from: ["type": "cat", "lives": 3])
}

tour.section("23. Every problem in one report, and what options stood in for")
tour.note("struct Point: JSONCodable { var x: Int; var y: Int }")
let allErrors = JSON.Configuration(collectsAllErrors: true)
tour.note("let allErrors = JSON.Configuration(collectsAllErrors: true)")
let badPoints = #"[{"x": 1, "y": "2"}, {"x": 3}, {"x": null, "y": 4}]"#
tour.step(
  "try [Point](jsonString: badPoints)   // stops at the first",
  #"throws at [0].y: expected Int, found string "2""#
) {
  try [Point](jsonString: badPoints)
}
tour.step(
  "try [Point](jsonString: badPoints, configuration: allErrors)",
  """
  throws 3 problems:
  at [0].y: expected Int, found string "2"
  at [1].y: missing key "y" for Point.y (Int)
  at [2].x: expected Int for Point.x, found null
  """
) {
  try [Point](jsonString: badPoints, configuration: allErrors)
}
tour.step(
  "(error.problemCount, error.problems.map(\\.path))   // the error itself is the first",
  #"(3, ["[0].y", "[1].y", "[2].x"])"#
) {
  do {
    _ = try [Point](jsonString: badPoints, configuration: allErrors)
    return "no error"
  } catch let error as JSON.Error {
    return (error.problemCount, error.problems.map(\.path))
  }
}
let fiveThousand = "[" + Array(repeating: #""x""#, count: 5000).joined(separator: ",") + "]"
tour.note(#"let fiveThousand = "[\"x\", \"x\", …]"   // 5000 strings, each one wrong for [Int]"#)
tour.step(
  "(error.problems.count, error.problemCount)   // listed at most 100, all counted", "(100, 5000)"
) {
  do {
    _ = try [Int](jsonString: fiveThousand, configuration: allErrors)
    return "no error"
  } catch let error as JSON.Error {
    return (error.problems.count, error.problemCount)
  }
}
tour.note(
  "struct Contributor: JSONCodable { var name: String; var presence: Presence; var tags: [String]; var age: Int"
)
tour.note(
  "  options: [\"name\": [.alternativeIndex(\"login\"), .defaultValue(\"anonymous\")], \"tags\": .lossy, \"age\": .nonNil] }"
)
let contributorText =
  #"{"login": "ada", "presence": "on-leave", "tags": ["a", 2, "b"], "age": "old"}"#
tour.step(
  "let (contributor, substituted) = try JSON.recordingSubstitutions { try Contributor(jsonString: contributorText) }",
  """
  at name: absent; read .alternativeIndex("login")
  at presence: "on-leave" names no case of Presence; used its fallback case .unknown
  at tags[1]: expected String, found number 2; left out (.lossy)
  at age: expected Int, found string "old"; used .nonNil
  """
) {
  let (_, substituted) = try JSON.recordingSubstitutions {
    try Contributor(jsonString: contributorText)
  }
  return substituted.map(\.description).joined(separator: "\n")
}
tour.step("contributor.tags   // the value is the same as without recording", #"["a", "b"]"#) {
  try JSON.recordingSubstitutions { try Contributor(jsonString: contributorText) }.0.tags
}

tour.section("24. JSON Pointer, Patch and Merge Patch")
let document: JSON = ["users": [["name": "Ada", "tags": ["math"]]], "a/b": 1]
tour.note(#"let document: JSON = ["users": [["name": "Ada", "tags": ["math"]]], "a/b": 1]"#)
tour.step(#"document[pointer: "/users/0/name"]   // RFC 6901"#, #""Ada""#) {
  document[pointer: "/users/0/name"]
}
tour.step(#"document[try JSON.Index(pointer: "/a~1b")]   // the key "a/b": ~1 is /, ~0 is ~"#, "1")
{
  document[try JSON.Index(pointer: "/a~1b")]
}
tour.step(
  ##"try document.applying(JSON.Patch(jsonString: #"[{"op":"add","path":"/users/0/tags/-","value":"engines"}]"#))"##,
  #"{"users":[{"name":"Ada","tags":["math","engines"]}],"a/b":1}"#
) {
  try document.applying(
    JSON.Patch(jsonString: #"[{"op":"add","path":"/users/0/tags/-","value":"engines"}]"#))
}
tour.step(
  #"try document.applying([.remove(["a/b"]), .test(["users", 0, "name"], "Grace")])   // all or nothing"#,
  #"throws at users[0].name: operation 1 (test /users/0/name): test failed: expected string "Grace", found string "Ada""#
) {
  try document.applying([.remove(["a/b"]), .test(["users", 0, "name"], "Grace")])
}
tour.step(
  #"JSON.patch(from: ["n": 1, "list": [1, 2]], to: ["n": 2, "list": [1]])"#,
  #"[{"op":"replace","path":"/n","value":2},{"op":"remove","path":"/list/1"}]"#
) {
  JSON.patch(from: ["n": 1, "list": [1, 2]], to: ["n": 2, "list": [1]])
}
tour.step(
  #"document.merging(patch: ["a/b": nil, "users": []])   // RFC 7386: null removes"#,
  #"{"users":[]}"#
) {
  document.merging(patch: ["a/b": nil, "users": []])
}
tour.step(
  #"try User(jsonString: userText).applying([.replace(["name"], "Grace")]).name   // through the mapping"#,
  "Grace"
) {
  try User(jsonString: userText).applying([.replace(["name"], "Grace")]).name
}
tour.step(
  #"try Preferences().merging(patch: ["fontSize": 14]).fontSize"#, "14"
) {
  try Preferences().merging(patch: ["fontSize": 14]).fontSize
}

tour.section("25. JSON Schema from models, no code")
tour.note(
  "struct WeatherQuery: JSONCodable { snakeCase; let city: String; let days: UInt8; let unit: Unit? }"
)
tour.step(#"try JSON.schema(for: WeatherQuery.self)["required"]"#, #"["city","days"]"#) {
  try JSON.schema(for: WeatherQuery.self)["required"]
}
tour.step(
  #"try JSON.schema(for: WeatherQuery.self)["properties", "days"]   // UInt8's bounds"#,
  #"{"type":"integer","minimum":0,"maximum":255}"#
) {
  try JSON.schema(for: WeatherQuery.self)["properties", "days"]
}
tour.step(
  #"try JSON.schema(for: WeatherQuery.self)["properties", "unit"]   // optional: null too"#,
  #"{"anyOf":[{"enum":["celsius","fahrenheit"]},{"type":"null"}]}"#
) {
  try JSON.schema(for: WeatherQuery.self)["properties", "unit"]
}
tour.step(
  #"try JSON.schema(for: Animal.self)["oneOf", 0]   // a class hierarchy: a branch per discriminator"#,
  ##"{"allOf":[{"$ref":"#/$defs/Cat"},{"properties":{"type":{"const":"cat"}},"required":["type"]}]}"##
) {
  try JSON.schema(for: Animal.self)["oneOf", 0]
}
tour.step(
  #"try JSON.schema(for: Setting.self)["anyOf"].count   // untagged: a branch per listed case"#,
  "6"
) {
  try JSON.schema(for: Setting.self)["anyOf"].count
}
tour.step(
  #"try JSON.schema(for: Setting.self)["anyOf", 2, "maxItems"]   // range(Int, Int): an array of two"#,
  "2"
) {
  try JSON.schema(for: Setting.self)["anyOf", 2, "maxItems"]
}
tour.step(
  #"try JSON.schema(for: Shape.self)["oneOf", 1]   // a tagged enum listing schemaCases: one branch each"#,
  #"{"type":"object","properties":{"type":{"const":"rect"},"width":{"type":"number"},"height":{"type":"number"}},"required":["type","width","height"]}"#
) {
  try JSON.schema(for: Shape.self)["oneOf", 1]
}
tour.step(
  #"try JSON.schema(for: Drawing.self)["$defs", "Figure", "oneOf", 0]   // a protocol type: oneOf"#,
  ##"{"allOf":[{"$ref":"#/$defs/Circle"},{"properties":{"kind":{"const":"circle"}},"required":["kind"]}]}"##
) {
  try JSON.schema(for: Drawing.self)["$defs", "Figure", "oneOf", 0]
}

tour.section("26. JSON5 and lenient reading")
let json5Text = "{name: 'demo', retries: 0x3, ratio: .5, /* comment */ tags: ['a',],}"
tour.note(
  #"let json5Text = "{name: 'demo', retries: 0x3, ratio: .5, /* comment */ tags: ['a',],}""#)
tour.step(
  "try JSON(jsonString: json5Text, reading: .json5)",
  #"{"name":"demo","retries":3,"ratio":0.5,"tags":["a"]}"#
) {
  try JSON(jsonString: json5Text, reading: .json5)
}
tour.step(
  #"try JSON(jsonString: "[1, // one\n 2,]", reading: [.comments, .trailingCommas])"#, "[1,2]"
) {
  try JSON(jsonString: "[1, // one\n 2,]", reading: [.comments, .trailingCommas])
}
let commented = JSON.Configuration(reading: [.comments, .trailingCommas])
tour.note("let commented = JSON.Configuration(reading: [.comments, .trailingCommas])")
tour.step(
  #"try [Int](jsonString: "[1, 2, /* 3 */]", configuration: commented)   // every entry point"#,
  "[1, 2]"
) {
  try [Int](jsonString: "[1, 2, /* 3 */]", configuration: commented)
}
var lenientStream = JSON.StreamOptions()
lenientStream.reading = .json5
tour.note("var lenientStream = JSON.StreamOptions(); lenientStream.reading = .json5")
tour.step(
  #"try SyncJSONStream(of: Int.self, data: Data("[1, /* two */ 0x2,]".utf8), options: lenientStream).map { try $0.get() }"#,
  "[1, 2]"
) {
  try SyncJSONStream(of: Int.self, data: Data("[1, /* two */ 0x2,]".utf8), options: lenientStream)
    .map { try $0.get() }
}
tour.step(
  #"try JSON(jsonString: "{a: 1}")   // strict by default"#,
  "throws malformed JSON at byte 1 (line 1, column 2): expected a string key, found 'a'"
) {
  try JSON(jsonString: "{a: 1}")
}

exit(tour.finish())
