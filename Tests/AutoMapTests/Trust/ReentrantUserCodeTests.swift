import AutoMap
import Foundation
import Testing

// Issue 20, finding 2: user code that AutoMap calls (a substitution handler, a transform, a
// Codable `init(from:)`) may call AutoMap itself. A handler's own calls run outside the scope
// it handles, so they never call it again; code that is part of the decode (a transform, a
// Codable value) runs inside it, as the rest of the decode does.

struct LenientNote: JSONCodable, Equatable {
  var text: String
  var level: Int
  static func specificOptions() -> [String: SpecificOption] { ["level": .defaultValue(1)] }
}

/// A Codable value that decodes a second document through AutoMap in `init(from:)`.
struct NoteCarrier: Codable, Equatable {
  var note: LenientNote
  init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    note = try LenientNote(jsonString: #"{"text": "\#(text)"}"#)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(LenientNote(jsonString: note.jsonString()).text)
  }
}

struct CarrierHolder: JSONCodable, Equatable {
  var carrier: NoteCarrier
  var noted: LenientNote
  static func specificOptions() -> [String: SpecificOption] {
    [
      "noted": .transform(
        CustomTransform<String, LenientNote>.both(
          fromJSON: { try LenientNote(jsonString: #"{"text": "\#($0)"}"#) },
          toJSON: { try LenientNote(decode: $0.json).text }))
    ]
  }
}

/// What a handler saw, from any thread.
final class HandlerLog: @unchecked Sendable {  // every access under `lock`
  private let lock = NSLock()
  private var seen: [JSON.Substitution] = []
  private var inner: [[JSON.Substitution]] = []
  func append(_ substitution: JSON.Substitution, inner recorded: [JSON.Substitution] = []) {
    lock.lock()
    defer { lock.unlock() }
    seen.append(substitution)
    inner.append(recorded)
  }
  var substitutions: [JSON.Substitution] {
    lock.lock()
    defer { lock.unlock() }
    return seen
  }
  var innerRecordings: [[JSON.Substitution]] {
    lock.lock()
    defer { lock.unlock() }
    return inner
  }
}

@Suite("User code that calls AutoMap while AutoMap calls it")
struct ReentrantUserCodeTests {
  @Test("a handler that decodes is called once per substitution, never by its own decode")
  func handlerThatDecodes() throws {
    let log = HandlerLog()
    let logging = JSON.Configuration(onSubstitution: { substitution in
      // Logging by decoding a lenient model: its own substitution must not come back here.
      let note = try? LenientNote(jsonString: #"{"text": "\#(substitution.path)"}"#)
      log.append(substitution, inner: note.map { _ in [] } ?? [])
    })
    let note = try LenientNote(jsonString: #"{"text": "a"}"#, configuration: logging)
    #expect(note == LenientNote(text: "a", level: 1))
    #expect(log.substitutions.map(\.path) == ["level"])
    #expect(log.substitutions.map(\.kind) == [.defaultValue])

    let scoped = HandlerLog()
    let notes = try JSON.withConfiguration(
      .init(onSubstitution: { substitution in
        _ = try? [LenientNote](jsonString: #"[{"text": "x"}, {"text": "y"}]"#)
        scoped.append(substitution)
      })
    ) { try [LenientNote](jsonString: #"[{"text": "a"}, {"text": "b", "level": 3}]"#) }
    #expect(notes.map(\.level) == [1, 3])
    #expect(scoped.substitutions.map(\.path) == ["[0].level"])
  }

  @Test("inside recordingSubstitutions, a decoding handler records only what the body did")
  func recordingAroundAHandler() throws {
    let log = HandlerLog()
    let (note, recorded) = try JSON.withConfiguration(
      .init(onSubstitution: { substitution in
        _ = try? LenientNote(jsonString: #"{"text": "handler"}"#)
        log.append(substitution)
      })
    ) {
      try JSON.recordingSubstitutions { try LenientNote(jsonString: #"{"text": "body"}"#) }
    }
    #expect(note.text == "body")
    #expect(recorded.map(\.path) == ["level"])
    // The enclosing handler sees the body's substitution once, and nothing of its own.
    #expect(log.substitutions.map(\.path) == ["level"])
  }

  @Test("a handler may record its own decodes in a scope of its own")
  func handlerWithItsOwnRecording() throws {
    let log = HandlerLog()
    let (_, outer) = try JSON.recordingSubstitutions {
      try JSON.withConfiguration(
        .init(onSubstitution: { substitution in
          let (_, own) = JSON.recordingSubstitutions {
            try? [LenientNote](jsonString: #"[{"text": "x"}, {"text": "y"}]"#)
          }
          log.append(substitution, inner: own)
        })
      ) { try LenientNote(jsonString: #"{"text": "body"}"#) }
    }
    #expect(log.substitutions.map(\.path) == ["level"])
    #expect(log.innerRecordings.map { $0.map(\.path) } == [["[0].level", "[1].level"]])
    // Handlers add up: the recording sees the body's substitution after the handler has run.
    // The handler's own calls run where its scope opened, inside the recording, which sees
    // them too, first.
    #expect(outer.map(\.path) == ["[0].level", "[1].level", "level"])
  }

  @Test("transforms and Codable values that decode run inside the scope, with their own paths")
  func partsOfTheDecodeThatDecode() throws {
    let text = #"{"carrier": "c", "noted": "n"}"#
    let (holder, recorded) = try JSON.recordingSubstitutions {
      try CarrierHolder(jsonString: text)
    }
    #expect(holder.carrier.note == LenientNote(text: "c", level: 1))
    #expect(holder.noted == LenientNote(text: "n", level: 1))
    #expect(recorded.map(\.kind) == [.defaultValue, .defaultValue])
    #expect(recorded.map(\.path) == ["carrier.level", "noted.level"])
    // Collecting every problem, the same calls decode as without it.
    let collected = try CarrierHolder(
      jsonString: text, configuration: .init(collectsAllErrors: true))
    #expect(collected == holder)
    let encoded = try JSON.withConfiguration(.init(collectsAllErrors: true)) {
      try holder.jsonString(options: [.sortedKeys])
    }
    #expect(try CarrierHolder(jsonString: encoded) == holder)
  }
}
