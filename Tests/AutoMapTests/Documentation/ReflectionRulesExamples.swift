import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/ReflectionRules.md (see
// GettingStartedExamples.swift).

enum ReflectionRulesArticle {
  final class Team: JSONCodable, DefaultInitable {
    var name = ""
    required init() {}
  }

  // docc:begin
  @propertyWrapper
  struct Trimmed: JSONPropertyWrapper {  // one line makes a wrapper mappable
    var wrappedValue: String
    init(wrappedValue: String) {
      self.wrappedValue = wrappedValue.trimmingCharacters(in: .whitespaces)
    }
  }

  final class Player: JSONCodable, DefaultInitable {
    weak var team: Team?  // left alone
    @Trimmed var name = ""  // "name", trimmed on decode
    lazy var initials = String(name.prefix(1))  // never mapped
    required init() {}
  }
  // docc:end

  // docc:begin
  struct Account: JSONCodable, DefaultInitable {
    let id = 0  // a `let` with a value from init(): refused at first use
    var name = ""
  }
  // docc:end
}

extension ReflectionRulesArticle {
  @Suite("Documentation: The rules reflection needs")
  struct Examples {
    @Test("Wrappers map under their name; weak and lazy storage is left alone")
    func wrapperWeakLazy() throws {
      let team = Team()
      let player = try Player(jsonString: #"{"name": "  Ada ", "team": {}}"#)
      #expect(player.team == nil && player.name == "Ada" && player.initials == "A")
      player.team = team
      #expect(try player.jsonString() == #"{"name":"Ada"}"#)
    }

    @Test("A let AutoMap cannot write safely is refused with what to change")
    func refusedLet() throws {
      let error = #expect(throws: JSON.Error.self) {
        try Account(jsonString: #"{"id": 1, "name": "a"}"#)
      }
      #expect(error?.kind == .invalidModel)
      #expect(error?.description.contains("Account.id") == true)
      #expect(error?.description.contains("var") == true)  // what to change
      #expect(try Account().jsonString() == #"{"id":0,"name":""}"#)  // encoding works
    }
  }
}
