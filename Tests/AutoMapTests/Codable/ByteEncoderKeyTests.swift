@_spi(Testing) import AutoMap
import Foundation
import Testing

// The byte `Encoder` keeps the keys of every open object on one stack for its session, and
// asks a table (not a cast) whether a value's type is mapped. Both are checked here against
// the reference, the `JSON` path, on code that nests, reopens and repeats.

/// Writes keys that repeat across objects (legal) and, when told, within one (refused).
private struct KeyJuggler: Codable {
  var repeatOuter = false
  var repeatInner = false
  var wide = 0
  /// Told which `Encoder` wrote last: a value the byte path gives up on is written again by
  /// the reference.
  var spy: EncoderSpy?

  init(repeatOuter: Bool = false, repeatInner: Bool = false, wide: Int = 0) {
    (self.repeatOuter, self.repeatInner, self.wide) = (repeatOuter, repeatInner, wide)
  }

  init(from decoder: any Decoder) throws { self.init() }

  func encode(to encoder: any Encoder) throws {
    spy?.last.withLock { $0 = "\(type(of: encoder))" }
    var outer = encoder.container(keyedBy: AnyKey.self)
    try outer.encode(1, forKey: AnyKey("a"))
    var inner = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
    try inner.encode(2, forKey: AnyKey("a"))  // another object: not a repeat
    var deeper = inner.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("d"))
    try deeper.encode(3, forKey: AnyKey("a"))
    try inner.encode(4, forKey: AnyKey("b"))  // closes `deeper`
    if repeatInner { try inner.encode(5, forKey: AnyKey("a")) }
    try outer.encode(6, forKey: AnyKey("b"))  // closes `inner`: its keys are gone
    var list = outer.nestedUnkeyedContainer(forKey: AnyKey("list"))
    var element = list.nestedContainer(keyedBy: AnyKey.self)
    try element.encode(7, forKey: AnyKey("b"))
    var second = list.nestedContainer(keyedBy: AnyKey.self)
    try second.encode(8, forKey: AnyKey("b"))
    for index in 0..<wide { try outer.encode(index, forKey: AnyKey("w\(index)")) }
    var again = encoder.container(keyedBy: AnyKey.self)  // the same object, reopened
    try again.encode(9, forKey: AnyKey("c"))
    if repeatOuter { try again.encode(10, forKey: AnyKey("a")) }
  }
}

private final class EncoderSpy: Sendable {
  let last = Shared("")
}

/// A base class that is only `Codable`, and a subclass AutoMap maps: a property declared as
/// the base is written as the instance's own type decides, on both paths.
private class Plain: Codable {
  var tag = "plain"
  init() {}
}
private final class Mapped: Plain, JSONEncodable {
  var json: JSON { ["mapped": true] }
}

private struct JugglerHolder: JSONCodable {
  var juggler = KeyJuggler()
  var jugglers: [KeyJuggler] = []
  var late = 0
}

private struct PlainHolder: JSONEncodable {
  var plain: Plain
  var plains: [Plain]
}

@Suite("The byte Encoder's key stack and type table agree with the JSON path")
struct ByteEncoderKeyTests {
  @Test("a value's own type decides whether AutoMap maps it, as the reference's cast does")
  func dynamicType() {
    agreeWriting(PlainHolder(plain: Mapped(), plains: [Plain(), Mapped()]))
    #expect(
      (try? PlainHolder(plain: Mapped(), plains: [Plain()]).jsonString())
        == #"{"plain":{"mapped":true},"plains":[{"tag":"plain"}]}"#)
  }

  @Test("the type table answers what the casts answer, for many types from many threads")
  func typeTable() async {
    func expected<T>(_: T.Type) -> [Bool] {
      [T.self is any JSONDecodable.Type, T.self is any JSONEncodable.Type]
    }
    // More types than the table has slots for some to meet in one.
    var cases: [(Any.Type, [Bool])] = [
      (Int.self, expected(Int.self)), (Double.self, expected(Double.self)),
      (Float.self, expected(Float.self)), (String.self, expected(String.self)),
      (Plain.self, expected(Plain.self)), (Mapped.self, expected(Mapped.self)),
      (KeyJuggler.self, expected(KeyJuggler.self)), ([Int].self, expected([Int].self)),
      ([KeyJuggler].self, expected([KeyJuggler].self)), (Int?.self, expected(Int?.self)),
      (Double?.self, expected(Double?.self)), (Plain?.self, expected(Plain?.self)),
      ([String: Int].self, expected([String: Int].self)), (Data.self, expected(Data.self)),
      (Date.self, expected(Date.self)), (URL.self, expected(URL.self)),
      ((Int, Int).self, expected((Int, Int).self)), (Any.self, expected(Any.self)),
      ((any JSONCodable).self, expected((any JSONCodable).self)),
      (JugglerHolder.self, expected(JugglerHolder.self)),
    ]
    func add<T>(_: T.Type) { cases.append((T.self, expected(T.self))) }
    func nest<T>(_: T.Type, _ depth: Int) {
      add(T.self)
      guard depth > 0 else { return }
      nest([T].self, depth - 1)
      nest(T?.self, depth - 1)
      nest([String: T].self, depth - 1)
    }
    nest(Double.self, 5)
    nest(Plain.self, 5)
    #expect(cases.count > 300)
    let all = cases
    await withTaskGroup(of: [String].self) { group in
      for task in 0..<8 {
        group.addTask {
          var wrong: [String] = []
          for round in 0..<20 {
            for index in all.indices {
              let (type, facts) = all[(index * 7 + task + round) % all.count]
              if AutoMapTesting.typeFacts(type) != facts { wrong.append("\(type)") }
            }
          }
          return wrong
        }
      }
      for await wrong in group { #expect(wrong.isEmpty, "\(Set(wrong))") }
    }
  }
}

extension ProcessWideState {
  /// Which `Encoder` writes a value once its model's reflection was observed: here, where no
  /// test forgets reflection meanwhile (the write would then be a first use, through `JSON`).
  @Suite("The byte Encoder's key stack: what stays on bytes")
  struct ByteEncoderKeyPathTests {
    @Test("keys repeated across nested objects, reopened containers, and real repeats")
    func nestedKeys() {
      ProcessWideState.expectInside()  // the spy sees which Encoder runs
      for outer in [false, true] {
        for inner in [false, true] {
          for wide in [0, 10, 70] {
            var juggler = KeyJuggler(repeatOuter: outer, repeatInner: inner, wide: wide)
            agreeWriting(JugglerHolder(juggler: juggler, jugglers: [juggler, juggler], late: 1))
            // Written on bytes unless a key repeats in one object, or one has over 64 keys.
            juggler.spy = EncoderSpy()
            _ = try? JugglerHolder(juggler: juggler).jsonData()
            let onBytes = !outer && !inner && wide < 64
            #expect(
              juggler.spy?.last.withLock { $0 } == (onBytes ? "ByteEncoder" : "JSONValueEncoder"),
              "repeats: \(outer), \(inner); \(wide) more keys")
          }
        }
      }
      let text = try? JugglerHolder(juggler: KeyJuggler(), late: 2).jsonString()
      #expect(
        text
          == #"{"juggler":{"a":1,"n":{"a":2,"d":{"a":3},"b":4},"b":6,"list":[{"b":7},{"b":8}],"c":9},"jugglers":[],"late":2}"#
      )
    }
  }
}

/// Two keys `==` takes for one (canonically equivalent), though their bytes differ.
private struct Accents: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(1, forKey: AnyKey("\u{E9}"))
    try container.encode(2, forKey: AnyKey("e\u{301}"))
  }
}

private struct AccentsBox: JSONEncodable {
  var accents = Accents()
}

extension ByteEncoderKeyTests {
  /// The reference keeps a `Codable` value's members by `String` (as `JSONEncoder` does), so
  /// the second key replaces the first: the byte path must take them for one key too, not
  /// compare bytes.
  @Test("keys equal as Strings but not as bytes are one key, as the reference writes them")
  func equivalentKeys() throws {
    agreeWriting(AccentsBox())
    let written = Array(try AccentsBox().jsonData())
    #expect(written == Array("{\"accents\":{\"\u{E9}\":2}}".utf8))
  }
}

/// Keys of every form the writer tells apart: short and clean (written in one append), at and
/// past the longest such, needing escapes, empty, not ASCII.
private struct KeyForms: Encodable {
  static let keys = [
    "a", "", String(repeating: "k", count: 27), String(repeating: "l", count: 28),
    "quote\"d", "back\\slash", "tab\there", "\u{1}", "ünïcödé", "👍", "/slash",
  ]
  var nullFirst = false

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    if nullFirst { try container.encodeNil(forKey: AnyKey("null")) }
    for (index, key) in Self.keys.enumerated() { try container.encode(index, forKey: AnyKey(key)) }
    var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("nested"))
    try nested.encodeNil(forKey: AnyKey("n"))
    try nested.encode(true, forKey: AnyKey("quote\"d"))
    var values = container.nestedUnkeyedContainer(forKey: AnyKey("values"))
    for key in Self.keys { try values.encode(key) }
  }
}

/// The model around it: `KeyForms` is written by the byte `Encoder`.
private struct KeyFormsBox: JSONEncodable {
  var forms = KeyForms()
}

extension ByteEncoderKeyTests {
  @Test("keys of every form: escaped as JSON says, read back, as the reference writes them")
  func keyForms() throws {
    for nullFirst in [false, true] {
      let value = KeyFormsBox(forms: KeyForms(nullFirst: nullFirst))
      agreeWriting(value)
      for options: JSON.WritingOptions in [[], [.omitNulls], [.prettyPrinted]] {
        let data = try value.jsonData(options: options)
        let box = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let object = box?["forms"] as? [String: Any]
        for (index, key) in KeyForms.keys.enumerated() {
          #expect(object?[key] as? Int == index, "\(key.debugDescription) \(options)")
        }
        #expect((object?["null"] != nil) == (nullFirst && !options.contains(.omitNulls)))
        #expect(object?["values"] as? [String] == KeyForms.keys, "\(options)")
      }
    }
    let text = try KeyFormsBox().jsonString()
    #expect(text.hasPrefix(#"{"forms":{"a":0,"":1,"kkkkkkkkkkkkkkkkkkkkkkkkkkk":2,"#))
    #expect(text.contains(#","quote\"d":4,"back\\slash":5,"tab\there":6,"\u0001":7,"#))
    #expect(
      text.contains(#""ünïcödé":8,"👍":9,"/slash":10,"nested":{"n":null,"quote\"d":true},"#))
    #expect(
      text.hasSuffix(
        #""values":["a","","kkkkkkkkkkkkkkkkkkkkkkkkkkk","llllllllllllllllllllllllllll","#
          + #""quote\"d","back\\slash","tab\there","\u0001","ünïcödé","👍","/slash"]}}"#))
    let omitted = try KeyFormsBox(forms: KeyForms(nullFirst: true)).jsonString(options: .omitNulls)
    #expect(omitted.hasPrefix(#"{"forms":{"a":0,"":1,"#))
  }
}
