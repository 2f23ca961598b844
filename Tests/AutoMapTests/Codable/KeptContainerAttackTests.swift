@_spi(Testing) import AutoMap
import Foundation
import Testing

// Kept containers attacked by `Codable` code that reaches past the public container: the
// concrete container inside the standard library's box, taken out with `Mirror` and boxed
// again (the box's own count does not move: the link's does), and the box held weakly. Each
// must refuse, never show or write into a later value. (Written by an adversarial review;
// the first two failed before the link's counts were checked.)

/// The concrete container inside a `KeyedDecodingContainer`/`KeyedEncodingContainer`, reached
/// through public `Mirror` only: the box's one stored property, then the box's own.
private func rvInner(_ container: Any) -> Any? {
  guard let box = Mirror(reflecting: container).children.first?.value else { return nil }
  return Mirror(reflecting: box).children.first?.value
}

private func rvRewrapDecoding<K: CodingKey>(_ inner: Any, _: K.Type) -> KeyedDecodingContainer<K>? {
  guard let c = inner as? any KeyedDecodingContainerProtocol else { return nil }
  func open<C: KeyedDecodingContainerProtocol>(_ c: C) -> Any { KeyedDecodingContainer(c) }
  return open(c) as? KeyedDecodingContainer<K>
}

private func rvRewrapEncoding<K: CodingKey>(_ inner: Any, _: K.Type) -> KeyedEncodingContainer<K>? {
  guard let c = inner as? any KeyedEncodingContainerProtocol else { return nil }
  func open<C: KeyedEncodingContainerProtocol>(_ c: C) -> Any { KeyedEncodingContainer(c) }
  return open(c) as? KeyedEncodingContainer<K>
}

private final class RvStash: @unchecked Sendable {
  var inner: Any?
  var decoder: (any Decoder)?
  weak var weakDecoder: AnyObject?
  var encoder: (any Encoder)?
  var log: [String] = []
  var box: AnyObject?
}

/// Keeps the concrete container (not the box) of each element, and reads the one kept by the
/// element before.
private struct RvPoint: Codable, Equatable {
  var x: Int
  var seen: Int?
  init(x: Int) { self.x = x }
  enum CodingKeys: String, CodingKey { case x, y }
  @TaskLocal static var stash: RvStash?

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    x = try c.decode(Int.self, forKey: .x)
    if let stash = Self.stash {
      if let inner = stash.inner, let old = rvRewrapDecoding(inner, CodingKeys.self) {
        seen = (try? old.decode(Int.self, forKey: .x)) ?? -1
      }
      stash.inner = rvInner(c)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    if let stash = Self.stash, let inner = stash.inner,
      var old = rvRewrapEncoding(inner, CodingKeys.self)
    {
      // Written while the next value is: into the element before (the reference: a box
      // already taken) or wherever the link leads.
      do { try old.encode(999, forKey: .y); stash.log.append("wrote") } catch {
        stash.log.append("refused")
      }
    }
    try c.encode(x, forKey: .x)
    if let stash = Self.stash { stash.inner = rvInner(c) }
  }
}

/// Keeps its Decoder/Encoder (strong) and asks it for a container in the next element.
private struct RvKeepsCoder: Codable, Equatable {
  var x: Int
  var seen: Int?
  init(x: Int) { self.x = x }
  enum CodingKeys: String, CodingKey { case x }
  @TaskLocal static var stash: RvStash?

  init(from decoder: any Decoder) throws {
    if let stash = Self.stash, let old = stash.decoder {
      seen = (try? old.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .x)) ?? -1
    }
    if let stash = Self.stash, let old = stash.weakDecoder as? any Decoder {
      let s = (try? old.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .x)) ?? -1
      seen = (seen ?? 0) + 1000 * s
    }
    let c = try decoder.container(keyedBy: CodingKeys.self)
    x = try c.decode(Int.self, forKey: .x)
    Self.stash?.decoder = decoder
  }

  func encode(to encoder: any Encoder) throws {
    if let stash = Self.stash, let old = stash.encoder {
      var c = old.container(keyedBy: CodingKeys.self)
      try? c.encode(777, forKey: .x)
    }
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(x, forKey: .x)
    Self.stash?.encoder = encoder
  }
}

/// Keeps the box weakly (no strong count), then takes it back in the next element.
private struct RvWeakBox: Codable, Equatable {
  var x: Int
  var seen: Int?
  init(x: Int) { self.x = x }
  enum CodingKeys: String, CodingKey { case x }
  @TaskLocal static var stash: RvStash?

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    x = try c.decode(Int.self, forKey: .x)
    if let stash = Self.stash {
      if let box = stash.weakDecoder, let inner = Mirror(reflecting: box).children.first?.value,
        let old = rvRewrapDecoding(inner, CodingKeys.self)
      {
        seen = (try? old.decode(Int.self, forKey: .x)) ?? -1
      }
      stash.weakDecoder = Mirror(reflecting: c).children.first?.value as AnyObject
    }
  }
}

/// Many key types on one node, each container kept in an array (copies), then used later.
private struct RvK0: CodingKey {
  var stringValue: String; init?(stringValue: String) { self.stringValue = stringValue };
  var intValue: Int? { nil }; init?(intValue: Int) { nil }
}
private struct RvMany: Codable, Equatable {
  var a: Int
  init(a: Int) { self.a = a }
  enum K1: String, CodingKey { case a }
  enum K2: String, CodingKey { case a }
  enum K3: String, CodingKey { case a }
  enum K4: String, CodingKey { case a }
  enum K5: String, CodingKey { case a }
  enum K6: String, CodingKey { case a }
  enum K7: String, CodingKey { case a }
  enum K8: String, CodingKey { case a }
  enum K9: String, CodingKey { case a }
  enum K10: String, CodingKey { case a }
  @TaskLocal static var stash: RvStash?
  init(from decoder: any Decoder) throws {
    var values: [Int] = []
    var kept: [Any] = []
    func read<K: CodingKey>(_: K.Type) throws {
      let c = try decoder.container(keyedBy: K.self)
      values.append(try c.decode(Int.self, forKey: K(stringValue: "a")!))
      kept.append(c)
    }
    try read(K1.self); try read(K2.self); try read(K3.self); try read(K4.self); try read(K5.self)
    try read(K6.self); try read(K7.self); try read(K8.self); try read(K9.self); try read(K10.self)
    try read(K1.self); try read(K10.self)
    guard Set(values).count == 1 else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(values)"))
    }
    a = values[0]
    if Self.stash != nil, a % 3 == 0 { Self.stash?.box = kept as AnyObject }
  }
  func encode(to encoder: any Encoder) throws {
    func write<K: CodingKey>(_: K.Type, _ value: Int) throws {
      let c = encoder.container(keyedBy: K.self)
      _ = value; _ = c
    }
    try write(K1.self, 1); try write(K2.self, 2); try write(K3.self, 3); try write(K4.self, 4)
    try write(K5.self, 5); try write(K6.self, 6); try write(K7.self, 7); try write(K8.self, 8)
    try write(K9.self, 9); try write(K10.self, 10)
    var c = encoder.container(keyedBy: K1.self)
    try c.encode(a, forKey: .a)
  }
}

/// super.encode(to:)-like: the same encoder asked for the same key type twice, with a nested
/// container of the same key type in between, and a copy kept in a closure.
private struct RvSuper: Codable, Equatable {
  var a: Int
  init(a: Int) { self.a = a }
  enum K: String, CodingKey { case a, b, n }
  @TaskLocal static var stash: RvStash?
  init(from decoder: any Decoder) throws {
    let c1 = try decoder.container(keyedBy: K.self)
    let n = try c1.nestedContainer(keyedBy: K.self, forKey: .n)
    let nn = try n.nestedContainer(keyedBy: K.self, forKey: .n)
    let c2 = try decoder.container(keyedBy: K.self)
    let a = try c2.decode(Int.self, forKey: .a)
    let b = try n.decode(Int.self, forKey: .b)
    let c = try nn.decode(Int.self, forKey: .b)
    guard b == a + 1, c == a + 2 else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(a) \(b) \(c)"))
    }
    self.a = a
    if let stash = Self.stash {
      let prev = stash.log.count
      stash.log.append("\(a)")
      _ = prev
    }
  }
  func encode(to encoder: any Encoder) throws {
    var c1 = encoder.container(keyedBy: K.self)
    try c1.encode(a, forKey: .a)
    var n = c1.nestedContainer(keyedBy: K.self, forKey: .n)
    var nn = n.nestedContainer(keyedBy: K.self, forKey: .n)
    try nn.encode(a + 2, forKey: .b)
    try n.encode(a + 1, forKey: .b)
    var c2 = encoder.container(keyedBy: K.self)
    try c2.encode(a, forKey: .b)
  }
}

@Suite("Review attacks on kept containers")
struct ReviewAttackTests {
  @Test("concrete container kept through Mirror (box count stays 1): decode")
  func mirrorInnerDecode() throws {
    let points = RvPointBox(items: (0..<20).map { RvPoint(x: $0) })
    let text = try points.json.jsonString()
    _ = try RvPointBox(jsonString: text).items
    _ = try RvPointBox(decode: JSON(jsonString: text)).items
    let bytes = try RvPoint.$stash.withValue(RvStash()) { try RvPointBox(jsonString: text).items }
    let reference = try RvPoint.$stash.withValue(RvStash()) {
      try RvPointBox(decode: JSON(jsonString: text)).items
    }
    print("RV bytes seen:", bytes.map { $0.seen.map(String.init) ?? "nil" })
    print("RV ref   seen:", reference.map { $0.seen.map(String.init) ?? "nil" })
    // Never another value's data: a kept container answers its own value or refuses.
    for (i, p) in bytes.enumerated() where i > 0 {
      #expect(p.seen == -1 || p.seen == i - 1, "element \(i) saw \(String(describing: p.seen))")
    }
  }

  @Test("concrete container kept through Mirror: encode")
  func mirrorInnerEncode() throws {
    let points = RvPointBox(items: (0..<20).map { RvPoint(x: $0) })
    let reference = try RvPoint.$stash.withValue(RvStash()) { try points.json.jsonString() }
    _ = try points.jsonString()
    let stash = RvStash()
    let bytes = try RvPoint.$stash.withValue(stash) { try points.jsonString() }
    print("RV enc bytes:", bytes)
    print("RV enc ref  :", reference)
    print("RV enc log:", stash.log)
    #expect(bytes == reference)
  }

  @Test("decoder/encoder kept strongly and weakly, asked again in the next element")
  func keptCoder() throws {
    let values = RvKeepsCoderBox(items: (0..<20).map { RvKeepsCoder(x: $0) })
    let text = try values.json.jsonString()
    _ = try RvKeepsCoderBox(jsonString: text).items
    _ = try values.jsonString()
    let bytes = try RvKeepsCoder.$stash.withValue(RvStash()) {
      try RvKeepsCoderBox(jsonString: text).items
    }
    let reference = try RvKeepsCoder.$stash.withValue(RvStash()) {
      try RvKeepsCoderBox(decode: JSON(jsonString: text)).items
    }
    print("RV coder bytes:", bytes.map { $0.seen.map(String.init) ?? "nil" })
    print("RV coder ref  :", reference.map { $0.seen.map(String.init) ?? "nil" })
    for (i, p) in bytes.enumerated() where i > 0 {
      #expect(p.seen == -1 || p.seen == i - 1, "element \(i) saw \(String(describing: p.seen))")
    }
    let wb = try RvKeepsCoder.$stash.withValue(RvStash()) { try values.jsonString() }
    let wr = try RvKeepsCoder.$stash.withValue(RvStash()) { try values.json.jsonString() }
    #expect(wb == wr)
  }

  @Test("box kept weakly, taken back in the next element")
  func weakBox() throws {
    let values = RvWeakBoxBox(items: (0..<20).map { RvWeakBox(x: $0) })
    let text = try values.json.jsonString()
    _ = try RvWeakBoxBox(jsonString: text).items
    let bytes = try RvWeakBox.$stash.withValue(RvStash()) {
      try RvWeakBoxBox(jsonString: text).items
    }
    print("RV weakbox bytes:", bytes.map { $0.seen.map(String.init) ?? "nil" })
    for (i, p) in bytes.enumerated() where i > 0 {
      #expect(
        p.seen == nil || p.seen == -1 || p.seen == i - 1,
        "element \(i) saw \(String(describing: p.seen))")
    }
  }

  @Test("ten key types on one node, copies kept in an array")
  func manyKeys() throws {
    let values = RvManyBox(items: (0..<60).map { RvMany(a: $0) })
    let reference = try values.json.jsonString()
    _ = try values.jsonString()
    let text = #"{"items":[{"a":0},{"a":1},{"a":2},{"a":3},{"a":4},{"a":5},{"a":6}]}"#
    _ = try RvManyBox(jsonString: text).items
    for _ in 0..<3 {
      #expect(try values.jsonString() == reference)
      let decoded = try RvMany.$stash.withValue(RvStash()) { try RvManyBox(jsonString: text).items }
      #expect(decoded.map(\.a) == Array(0..<7))
    }
  }

  @Test("same key type twice and nested at several levels")
  func superPattern() throws {
    let values = RvSuperBox(items: (0..<30).map { RvSuper(a: $0 * 10) })
    let reference = try values.json.jsonString()
    _ = try values.jsonString()
    print("RV super ref:", reference.prefix(200))
    for _ in 0..<3 {
      #expect(try values.jsonString() == reference)
      #expect(try RvSuperBox(jsonString: reference).items == values.items)
      #expect(try RvSuperBox(decode: JSON(jsonString: reference)).items == values.items)
    }
  }
}

private struct RvPointBox: JSONCodable, Equatable { var items: [RvPoint] = [] }
private struct RvPointBranch: Codable, Equatable { var items: [RvPoint] }
private struct RvPointOneBox: JSONCodable, Equatable { var branch = RvPointBranch(items: []) }

private struct RvKeepsCoderBox: JSONCodable, Equatable { var items: [RvKeepsCoder] = [] }
private struct RvKeepsCoderBranch: Codable, Equatable { var items: [RvKeepsCoder] }
private struct RvKeepsCoderOneBox: JSONCodable, Equatable {
  var branch = RvKeepsCoderBranch(items: [])
}

private struct RvWeakBoxBox: JSONCodable, Equatable { var items: [RvWeakBox] = [] }
private struct RvWeakBoxBranch: Codable, Equatable { var items: [RvWeakBox] }
private struct RvWeakBoxOneBox: JSONCodable, Equatable { var branch = RvWeakBoxBranch(items: []) }

private struct RvManyBox: JSONCodable, Equatable { var items: [RvMany] = [] }
private struct RvManyBranch: Codable, Equatable { var items: [RvMany] }
private struct RvManyOneBox: JSONCodable, Equatable { var branch = RvManyBranch(items: []) }

private struct RvSuperBox: JSONCodable, Equatable { var items: [RvSuper] = [] }
private struct RvSuperBranch: Codable, Equatable { var items: [RvSuper] }
private struct RvSuperOneBox: JSONCodable, Equatable { var branch = RvSuperBranch(items: []) }
