import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/Options.md (see GettingStartedExamples.swift).

enum OptionsArticle {
  struct Location: JSONCodable, DefaultInitable {
    var latitude = 0.0
    var longitude = 0.0
  }

  // docc:begin
  struct Member: JSONCodable {
    var id = 0
    var city = ""
    var nickname = ""
    var friends: [Int] = []
    var homepage: URL?
    var session: String?
    var location = Location()

    static func specificOptions() -> [String: SpecificOption] {
      [
        "id": "member_id",  // a string is a key (dots included)
        "city": .index(["address", "city"]),  // a path
        "nickname": [.alternativeIndex("nick"), .defaultValue("anonymous")],  // arrays combine
        "friends": .nonNil,  // absent, null or unusable: []
        "homepage": [.transform(web), .ignoreIfNull],
        "session": .ignore,
        "location": .index([]),  // flatten: fields from the enclosing object
      ]
    }

    static let web = CustomTransform<String, URL>.both(  // host text <-> URL
      fromJSON: { host in
        guard let url = URL(string: "https://\(host)") else {
          throw JSON.Error.custom("bad host \(host)")
        }
        return url
      },
      toJSON: { $0.host ?? "" })
  }
  // docc:end

  // docc:begin
  struct Reading: JSONCodable {
    var tags: [String]
    var count: Int
    var note: String?
    static func specificOptions() -> [String: SpecificOption] {
      ["tags": .lossy, "count": .lossless, "note": .emptyAsNil]
    }
  }
  // docc:end

  // docc:begin
  struct Event: JSONCodable {
    var createdAt: Date
    var seenAt: Date
    static func specificOptions() -> [String: SpecificOption] {
      [
        "createdAt": .transform(DateTransform.secondsSince1970),
        "seenAt": .transform(DateTransform.oneOf(.iso8601, .millisecondsSince1970, .rfc1123)),
      ]
    }
  }
  // docc:end
}

extension OptionsArticle {
  @Suite("Documentation: Options")
  struct Examples {
    @Test("Member reads keys, paths, fallbacks, transforms and a flattened model")
    func member() throws {
      // docc:begin
      let member = try Member(
        jsonString: #"""
          {"member_id": 7, "address": {"city": "Oslo"}, "nick": "ada", "friends": null,
           "homepage": "ada.example", "session": "s3cr3t", "latitude": 59.9, "longitude": 10.7}
          """#)
      // member.city == "Oslo", member.friends == [], member.session == nil,
      // member.location.latitude == 59.9
      let text = try member.jsonString()
      // {"member_id":7,"address":{"city":"Oslo"},"nickname":"ada","friends":[],
      //  "homepage":"ada.example","latitude":59.9,"longitude":10.7}
      // docc:end
      #expect(member.id == 7 && member.city == "Oslo" && member.nickname == "ada")
      #expect(member.friends == [] && member.session == nil)
      #expect(member.homepage?.absoluteString == "https://ada.example")
      #expect(member.location.latitude == 59.9 && member.location.longitude == 10.7)
      #expect(
        text == #"{"member_id":7,"address":{"city":"Oslo"},"nickname":"ada","friends":[],"#
          + #""homepage":"ada.example","latitude":59.9,"longitude":10.7}"#)
      let anonymous = try Member(jsonString: #"{"member_id": 1, "address": {"city": "Rome"}}"#)
      #expect(anonymous.nickname == "anonymous" && anonymous.homepage == nil)
      #expect(try anonymous.jsonString().contains("homepage") == false)
    }

    @Test("lossy, lossless and emptyAsNil")
    func lenient() throws {
      // docc:begin
      let reading = try Reading(jsonString: #"{"tags": ["a", 2, "b"], "count": "12", "note": ""}"#)
      // tags == ["a", "b"], count == 12, note == nil
      // docc:end
      #expect(reading.tags == ["a", "b"] && reading.count == 12 && reading.note == nil)
      #expect(throws: JSON.Error.self) {
        try Reading(jsonString: #"{"tags": [], "count": "12abc"}"#)
      }
    }

    @Test("Dates in several formats read with each and write with the first")
    func dates() throws {
      let event = try Event(
        jsonString: #"{"createdAt": 1714566600, "seenAt": "Wed, 01 May 2024 12:30:00 GMT"}"#)
      #expect(event.createdAt == Date(timeIntervalSince1970: 1_714_566_600))
      #expect(event.seenAt == event.createdAt)
      let text = try event.jsonString()
      #expect(text == #"{"createdAt":1714566600.0,"seenAt":"2024-05-01T12:30:00Z"}"#, "\(text)")
    }

    @Test("A wrong option is an error at first use that says what to change")
    func checkedOptions() {
      struct Typo: JSONCodable {
        var name = ""
        static func specificOptions() -> [String: SpecificOption] { ["nmae": "full_name"] }
      }
      let error = #expect(throws: JSON.Error.self) { try Typo(jsonString: #"{"name": "x"}"#) }
      #expect(error?.description.contains("nmae") == true)
    }
  }
}
