import Foundation

/// Builds the benchmark's API-response documents in memory, deterministically: users with
/// nested addresses and posts; strings with escapes and non-ASCII text; integers, doubles,
/// bools and nulls.
enum DocumentGenerator {
  /// A document of about `targetBytes` bytes of compact JSON.
  static func apiResponse(targetBytes: Int) -> Data {
    var generator = SplitMix(seed: 0x5EED)
    var users: [String] = []
    var size = 0
    var id = 0
    while size < targetBytes {
      let user = userJSON(id: id, random: &generator)
      size += user.utf8.count + 1
      users.append(user)
      id += 1
    }
    let text = """
      {"status":"ok","page":{"number":1,"size":\(users.count),"total":\(users.count),"next":null},\
      "users":[\(users.joined(separator: ","))]}
      """
    return Data(text.utf8)
  }

  /// About `targetBytes` of users, the API response's elements, as one JSON array or as
  /// JSON Lines, handed to `write` in pieces of about 4 MB (a document larger than memory
  /// is never held whole).
  static func users(targetBytes: Int, lines: Bool, _ write: (Data) throws -> Void) rethrows {
    var generator = SplitMix(seed: 0x5EED)
    var piece = lines ? "" : "["
    var size = 0
    var id = 0
    while size < targetBytes {
      let user = userJSON(id: id, random: &generator)
      if id > 0 { piece += lines ? "\n" : "," }
      piece += user
      size += user.utf8.count + 1
      id += 1
      if piece.utf8.count >= 4 << 20 {
        try write(Data(piece.utf8))
        piece = ""
      }
    }
    try write(Data((piece + (lines ? "\n" : "]")).utf8))
  }

  /// One object of `count` distinct keys with small values: what repeated-key checks must
  /// handle in linear time.
  static func wideObject(keys count: Int) -> Data {
    var text = "{"
    for index in 0..<count {
      if index > 0 { text += "," }
      text += "\"field_\(index)\":\(index % 1000)"
    }
    return Data((text + "}").utf8)
  }

  private static let words = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
  ]
  private static let international = [
    "Zoë", "Ångström", "naïve café", "Straße", "東京", "Москва", "מִצְרַיִם", "😀 emoji", "Ελλάδα",
    "São Paulo",
  ]

  private static func userJSON(id: Int, random: inout SplitMix) -> String {
    let name = "\(words[random.next(20)].capitalized) \(international[random.next(10)])"
    let bio =
      "Line one\\nLine \\\"two\\\" with a tab\\t and \\u00e9 — \(international[random.next(10)])"
    let tags = (0..<random.next(5)).map { _ in "\"\(words[random.next(20)])\"" }
    let posts = (0..<(1 + random.next(4))).map { postID in
      """
      {"id":\(id * 10 + postID),"title":"\(words[random.next(20)]) \(words[random.next(20)])",\
      "body":"\(String(repeating: words[random.next(20)] + " ", count: 8 + random.next(8)))",\
      "likes":\(random.next(10_000)),"rating":\(Double(random.next(50_000)) / 10_000.0),\
      "published":\(random.next(2) == 0),"editedAt":\(random.next(3) == 0 ? "null" : "\(1_700_000_000 + random.next(10_000_000))")}
      """
    }
    return """
      {"id":\(id),"name":"\(name)","email":"user\(id)@example.com","bio":"\(bio)",\
      "age":\(18 + random.next(60)),"score":\(Double(random.next(1_000_000)) / 997.0),\
      "verified":\(random.next(2) == 0),"nickname":\(random.next(2) == 0 ? "null" : "\"nick\(id)\""),\
      "tags":[\(tags.joined(separator: ","))],\
      "address":{"street":"\(random.next(999)) \(words[random.next(20)].capitalized) Street",\
      "city":"\(international[random.next(10)])","zip":"\(10000 + random.next(89999))",\
      "geo":{"lat":\(Double(random.next(180_000_000)) / 1_000_000.0 - 90),\
      "lng":\(Double(random.next(360_000_000)) / 1_000_000.0 - 180)}},\
      "posts":[\(posts.joined(separator: ","))]}
      """
  }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Int(z % UInt64(bound))
  }
}
