import AutoMap
import Foundation
import Testing

struct Profile: JSONCodable, Equatable {
  var id: Int
  var city: String
  var nickname: String
  var role: Role
  var tags: [String]
  var website: URL?
  var note: String?
  var cache: [Int]?
  var joined: Date
  var location: Location

  struct Location: JSONCodable, Equatable {
    var lat: Double
    var lng: Double
  }

  static let web = CustomTransform<String, URL>.both(
    fromJSON: { host in
      guard let url = URL(string: "https://\(host)") else { throw JSON.Error.custom("bad host") }
      return url
    },
    toJSON: { $0.host ?? "" })

  static func specificOptions() -> [String: SpecificOption] {
    [
      "id": "user_id",
      "city": .index(["address", "city"]),
      "nickname": [.alternativeIndex("nick"), .defaultValue("none")],
      "role": .defaultValue(Role.guest),
      "tags": .nonNil,
      "website": [.transform(web), .ignoreIfNull],
      "note": .ignoreIfNull,
      "cache": .ignore,
      "joined": .transform(DateTransform.secondsSince1970),
      "location": .index([]),
    ]
  }
}

@Suite("Options")
struct OptionTests {
  let text = #"""
    {"user_id": 1, "address": {"city": "Paris"}, "nick": "p", "role": "root", "tags": null,
     "website": "example.com", "cache": [1], "joined": 86400, "lat": 48.8, "lng": 2.3}
    """#

  @Test("every option decodes as documented")
  func decoding() throws {
    let profile = try decodeAllWays(Profile.self, text)
    #expect(profile.id == 1, ".index key")
    #expect(profile.city == "Paris", ".index path")
    #expect(profile.nickname == "p", ".alternativeIndex")
    #expect(profile.role == .guest, ".defaultValue for an unusable value")
    #expect(profile.tags == [], ".nonNil for null")
    #expect(profile.website == URL(string: "https://example.com"), ".transform")
    #expect(profile.cache == nil, ".ignore")
    #expect(profile.joined == Date(timeIntervalSince1970: 86400), "DateTransform")
    #expect(profile.location == .init(lat: 48.8, lng: 2.3), ".index([]) flattens")
  }

  @Test("every option encodes as documented")
  func encoding() throws {
    var profile = try Profile(jsonString: text)
    profile.cache = [9]
    let json = try profile.json
    #expect(json["user_id"] == 1)
    #expect(json["address", "city"] == "Paris")
    #expect(json["website"] == "example.com")
    #expect(json["note"].isMissing, ".ignoreIfNull leaves the key out")
    #expect(json["cache"].isMissing, ".ignore is not written")
    #expect(json["joined"] == 86400.0)
    #expect(json["lat"] == 48.8, "flattened fields are written into the enclosing object")
    profile.cache = nil  // ignored: not written, so not read back
    #expect(try Profile(jsonData: profile.jsonData()) == profile)
  }

  @Test("a failing transform reports the property's path")
  func transformFailure() {
    let error = decodingError(
      Profile.self, text.replacingOccurrences(of: "86400", with: #""soon""#))
    #expect(error?.path == "joined")
  }
}

@Suite("Dates")
struct DateTests {
  @Test(
    "ISO 8601 parses with fractions and offsets",
    arguments: [
      ("1970-01-01T00:00:00Z", 0.0), ("2024-02-29T12:30:15.250Z", 1_709_209_815.25),
      ("2024-02-29T14:30:15+02:00", 1_709_209_815), ("1969-12-31T23:59:59Z", -1),
    ])
  func iso(text: String, seconds: Double) throws {
    #expect(try Date(decode: JSON(text)) == Date(timeIntervalSince1970: seconds))
  }

  @Test("ISO 8601 writes UTC and round-trips")
  func isoWrite() throws {
    let date = Date(timeIntervalSince1970: 1_709_209_815.25)
    #expect(try date.json == "2024-02-29T12:30:15.250Z")
    #expect(try Date(decode: date.json) == date)
    #expect(throws: JSON.Error.self) { try Date(decode: "2024-02-30T00:00:00Z") }
  }
}
