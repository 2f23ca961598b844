import Foundation

/// How a key style applies to `Codable` types' `CodingKey`s, the way `JSONDecoder` and
/// `JSONEncoder` apply their key strategies, so that a type written for
/// `.convertFromSnakeCase` behaves the same here.
///
/// Decoding converts each JSON key to a coding key and compares it with the type's keys
/// (`"avatar_url"` becomes `avatarUrl`); encoding converts each coding key to a JSON key
/// (`avatarUrl` becomes `"avatar_url"`). These are Foundation's algorithms, so `avatarURL`
/// written by `.snakeCase` reads back as `avatarUrl`, exactly as with `JSONDecoder`. (AutoMap's
/// own models compute keys from property names and do not have this asymmetry.)
extension JSON.KeyStyle {
  /// The coding key a JSON key stands for (decoding). `nil` when this style compares keys
  /// another way (`.caseInsensitive`) or leaves them as they are (`.exact`).
  func codingKey(forJSONKey key: String) -> String? {
    switch self {
    case .exact, .caseInsensitive: nil
    case .snakeCase: Self.convertFromSnakeCase(key)
    case .upperCamelCase: key.prefix(1).lowercased() + key.dropFirst()
    // Foundation has no such strategies: these are its snake-case ones, respelled.
    case .kebabCase: Self.convertFromSnakeCase(key.replacingOccurrences(of: "-", with: "_"))
    case .screamingSnakeCase: Self.convertFromSnakeCase(key.lowercased())
    }
  }

  /// The JSON key a coding key is written as (encoding).
  func jsonKey(forCodingKey key: String) -> String {
    switch self {
    case .exact, .caseInsensitive: key
    case .snakeCase: Self.convertToSnakeCase(key)
    case .upperCamelCase: key.prefix(1).uppercased() + key.dropFirst()
    case .kebabCase: Self.convertToSnakeCase(key).replacingOccurrences(of: "_", with: "-")
    case .screamingSnakeCase: Self.convertToSnakeCase(key).uppercased()
    }
  }

  /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`: `"user_id"` becomes `userId`;
  /// leading and trailing underscores are kept; a key without underscores is left alone.
  static func convertFromSnakeCase(_ key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
    var last = key.index(before: key.endIndex)
    while last > first && key[last] == "_" { key.formIndex(before: &last) }
    let words = key[first...last].split(separator: "_")
    let joined =
      words.count == 1
      ? String(key[first...last])
      : ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
    return String(key[..<first]) + joined + String(key[key.index(after: last)...])
  }

  /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`: `userID` becomes `"user_id"`,
  /// `URLString` becomes `"url_string"`.
  static func convertToSnakeCase(_ key: String) -> String {
    guard !key.isEmpty else { return key }
    var words: [Range<String.Index>] = []
    var wordStart = key.startIndex
    var searchRange = key.index(after: wordStart)..<key.endIndex
    while let upper = key.rangeOfCharacter(from: .uppercaseLetters, range: searchRange) {
      words.append(wordStart..<upper.lowerBound)
      searchRange = upper.lowerBound..<searchRange.upperBound
      guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, range: searchRange) else {
        wordStart = searchRange.lowerBound
        break
      }
      let afterCapital = key.index(after: upper.lowerBound)
      if lower.lowerBound == afterCapital {
        wordStart = upper.lowerBound
      } else {
        // A run of capitals is a word of its own, up to the capital before the lowercase.
        let beforeLower = key.index(before: lower.lowerBound)
        words.append(upper.lowerBound..<beforeLower)
        wordStart = beforeLower
      }
      searchRange = lower.upperBound..<searchRange.upperBound
    }
    words.append(wordStart..<searchRange.upperBound)
    return words.map { key[$0].lowercased() }.joined(separator: "_")
  }
}
