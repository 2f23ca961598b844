import AutoMap
import Foundation
import Testing

/// Lenient decodes made observable (issue 11, item 2): where an option stood in for a value,
/// a decode can say what and where.
@Suite("Reporting: substitutions")
struct SubstitutionTests {
  static let memberText = #"""
    {"id": 1, "nick": "ada", "status": "archived", "friends": "x", "scores": [1, "2", 3],
     "best": {"x": "?"}, "byRegion": {"eu": 1, "mars": 2}, "limits": {"a": 1, "b": null}}
    """#

  @Test("each option that stands in is recorded with its path and reason")
  func everyKind() throws {
    let (member, substituted) = try JSON.recordingSubstitutions {
      try RMember(jsonString: Self.memberText)
    }
    #expect(member.nickname == "ada" && member.status == .unknown && member.ratio == 1)
    #expect(member.byRegion == [.eu: 1, .other: 2])
    #expect(
      substituted.map(\.description) == [
        #"at nickname: absent; read .alternativeIndex("nick")"#,
        #"at status: "archived" names no case of RStatus; used its fallback case .unknown"#,
        #"at friends: expected Array<Int>, found string "x"; used .nonNil"#,
        #"at scores[1]: expected Int, found string "2"; left out (.lossy)"#,
        #"at best: at best.x: expected Int, found string "?"; nil (.lossy)"#,
        #"at byRegion.mars: "mars" names no case of RRegion; used its fallback case .other"#,
        #"at limits.b: expected Int, found null; left out (.lossy)"#,
        "at ratio: absent; used .defaultValue(1.0)",
      ])
    #expect(
      substituted.map(\.kind) == [
        .alternativeIndex, .fallbackCase, .nonNil, .lossyElement, .lossyNil, .fallbackCase,
        .lossyElement, .defaultValue,
      ])
    // The problem a substitution covered carries its full path.
    #expect(substituted[4].problem?.path == "best.x")
    #expect(substituted[3].problem?.path == "scores[1]")
    #expect(substituted[0].problem == nil && substituted[7].reason == "absent")
  }

  @Test("nested models and arrays give paths from the root")
  func nestedPaths() throws {
    let text = #"""
      {"title": "t", "members": [
        {"id": 1, "nickname": "a", "status": "active", "friends": [], "scores": [],
         "byRegion": {}, "limits": {}, "ratio": 2},
        {"id": 2, "nickname": null, "status": "gone", "friends": [1], "scores": ["s"],
         "byRegion": {}, "limits": {}, "ratio": 2}],
       "lead": {"id": 3, "status": "active", "friends": null, "scores": [],
         "byRegion": {}, "limits": {}, "ratio": null}}
      """#
    let (_, substituted) = try JSON.recordingSubstitutions { try RTeam(jsonData: Data(text.utf8)) }
    #expect(
      substituted.map(\.path) == [
        "members[1].nickname", "members[1].status", "members[1].scores[0]", "lead.nickname",
        "lead.friends", "lead.ratio",
      ])
    #expect(substituted[3].reason == "absent" && substituted[4].reason == "null")
  }

  /// What each entry point records for `text`, with the value it decoded.
  static func everyEntryPoint<T: JSONDecodable & Equatable>(_: T.Type, _ text: String) throws
    -> [(String, T?, [JSON.Substitution])]
  {
    func run(_ name: String, _ body: () throws -> T) -> (String, T?, [JSON.Substitution]) {
      let (value, list) = JSON.recordingSubstitutions { try? body() }
      return (name, value, list)
    }
    return [
      run("T(decode: JSON)") { try T(decode: JSON(jsonString: text)) },
      run("T(jsonData:)") { try T(jsonData: Data(text.utf8)) },
      run("T(jsonString:)") { try T(jsonString: text) },
      run("T(jsonData: [UInt8])") { try T(jsonData: Array(text.utf8)) },
      run("T(jsonData:at: [])") { try T(jsonData: Data(text.utf8), at: []) },
    ]
  }

  /// While recording, byte input is decoded through `JSON` values: the byte entry points
  /// record what the `JSON` path records by construction, and this guards that routing. The
  /// byte path's own values are compared in ``sameValue()`` and ``byteValues()``.
  @Test("every entry point records the same substitutions")
  func entryPointsAgree() throws {
    let arrayText = "[" + Self.memberText + ", " + Self.memberText + "]"
    for results in [
      try Self.everyEntryPoint(RMember.self, Self.memberText).map { ($0.0, $0.2) },
      try Self.everyEntryPoint([RMember].self, arrayText).map { ($0.0, $0.2) },
    ] {
      let reference = results[0].1
      #expect(!reference.isEmpty)
      for (name, list) in results.dropFirst() {
        #expect(list == reference, "\(name) disagrees")
      }
    }
    let (_, twice) = try JSON.recordingSubstitutions { try [RMember](jsonString: arrayText) }
    #expect(twice.count == 16 && twice[8].path == "[1].nickname")
  }

  /// The plain call runs the byte path; the recording one, the `JSON` path.
  @Test("recording does not change the value")
  func sameValue() throws {
    _ = try RMember(decode: JSON(jsonString: Self.memberText))  // reflection observed
    let plain = try RMember(jsonString: Self.memberText)
    let (recorded, _) = try JSON.recordingSubstitutions { try RMember(jsonString: Self.memberText) }
    #expect(plain == recorded)
  }

  /// Every entry point's value without recording (bytes straight into memory) against the
  /// value the recording call gave through `JSON`, field by field.
  @Test("the byte path gives the values the recording path gives")
  func byteValues() throws {
    let arrayText = "[" + Self.memberText + ", " + Self.memberText + "]"
    let recorded = try Self.everyEntryPoint([RMember].self, arrayText)
    let reference = try #require(recorded[0].1)
    #expect(reference.count == 2)
    for (name, value, _) in recorded { #expect(value == reference, "\(name) while recording") }
    for value in [
      try [RMember](jsonString: arrayText), try [RMember](jsonData: Data(arrayText.utf8)),
      try [RMember](jsonData: Array(arrayText.utf8)),
    ] {
      #expect(value == reference)
    }
  }

  @Test("a configuration's handler sees every substitution of the call, and only that call")
  func handler() throws {
    let seen = Shared<[String]>([])
    let logging = JSON.Configuration(onSubstitution: { s in seen.withLock { $0.append(s.path) } })
    _ = try RMember(jsonString: Self.memberText, configuration: logging)
    _ = try RMember(jsonString: Self.memberText)  // not recorded
    #expect(seen.withLock { $0 }.count == 8)
    // Nothing is recorded for a document that needs no substitution.
    let (_, none) = try JSON.recordingSubstitutions {
      try RPoint(jsonString: #"{"x": 1, "y": 2}"#)
    }
    #expect(none.isEmpty)
  }

  @Test("concurrent calls keep their own records")
  func concurrent() async throws {
    let texts = (0..<8).map { index in
      #"{"id": \#(index), "status": "s\#(index)", "friends": [], "scores": [],"#
        + #" "byRegion": {}, "limits": {}, "ratio": 1, "nickname": "n"}"#
    }
    let results = try await withThrowingTaskGroup(of: (Int, [JSON.Substitution]).self) { group in
      for (index, text) in texts.enumerated() {
        group.addTask {
          let (_, list) = try JSON.recordingSubstitutions { try RMember(jsonString: text) }
          return (index, list)
        }
      }
      return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    for index in 0..<8 {
      #expect(
        results[index]?.map(\.reason) == [#""s\#(index)" names no case of RStatus"#])
    }
  }

  @Test("a stream's elements record their substitutions")
  func streams() throws {
    let text =
      Self.memberText.replacingOccurrences(of: "\n", with: " ") + "\n"
      + Self.memberText.replacingOccurrences(of: "\n", with: " ")
    let (count, substituted) = try JSON.recordingSubstitutions {
      var count = 0
      for result in SyncJSONStream(of: RMember.self, data: Data(text.utf8), format: .lines) {
        _ = try result.get()
        count += 1
      }
      return count
    }
    #expect(count == 2)
    #expect(substituted.count == 16)
  }

  @Test("collecting errors and recording substitutions work together")
  func together() throws {
    let both = JSON.Configuration(collectsAllErrors: true)
    let text = #"[{"x": 1, "y": "a"}, {"x": "b", "y": 2}]"#
    let (error, substituted) = JSON.recordingSubstitutions { () -> JSON.Error? in
      do {
        _ = try [RPoint](jsonString: text, configuration: both)
        return nil
      } catch {
        return error as? JSON.Error
      }
    }
    #expect(error?.problems.map(\.path) == ["[0].y", "[1].x"])
    #expect(substituted.isEmpty)
  }
}
