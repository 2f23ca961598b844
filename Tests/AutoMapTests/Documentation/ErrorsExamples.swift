import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/Errors.md (see GettingStartedExamples.swift).

enum ErrorsArticle {
  struct User: JSONCodable { var id: Int; var name: String }
}

extension ErrorsArticle {
  @Suite("Documentation: Errors")
  struct Examples {
    @Test("An error says where, what was expected and what was found")
    func pathAndDescription() throws {
      // docc:begin
      do {
        _ = try [User](jsonString: #"[{"id": 1, "name": "Ada"}, {"id": "2", "name": "Lin"}]"#)
      } catch let error as JSON.Error {
        print(error.path)  // [1].id
        print(error)  // at [1].id: expected Int, found string "2"
      }
      // docc:end
      let error = #expect(throws: JSON.Error.self) {
        try [User](jsonString: #"[{"id": 1, "name": "Ada"}, {"id": "2", "name": "Lin"}]"#)
      }
      #expect(error?.path == "[1].id" && error?.kind == .typeMismatch)
      #expect(error?.description == #"at [1].id: expected Int, found string "2""#)
    }

    @Test("Malformed text gives the byte offset, line and column")
    func malformed() throws {
      let error = #expect(throws: JSON.Error.self) {
        try User(jsonString: "{\"id\": 1,\n \"name\" \"Ada\"}")
      }
      #expect(error?.kind == .malformed(offset: 18, line: 2, column: 9))
    }
  }
}
