import AutoMap
import Foundation
import Testing

// Codable types as another package would ship them: they know nothing of AutoMap.

/// Hand-written `init(from:)` with a default and a validation; synthesized `encode(to:)`.
struct Price: Codable, Hashable {
  var amount: Int64
  var currency: String

  init(_ amount: Int64, _ currency: String = "EUR") {
    self.amount = amount
    self.currency = currency
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    amount = try container.decode(Int64.self, forKey: .amount)
    currency = try container.decodeIfPresent(String.self, forKey: .currency) ?? "EUR"
    guard currency.count == 3 else {
      throw DecodingError.dataCorruptedError(
        forKey: .currency, in: container, debugDescription: "a currency has 3 letters")
    }
  }
}

/// Renamed keys and keys that need escaping.
struct Labelled: Codable, Equatable {
  var givenName: String
  var odd: Int
  enum CodingKeys: String, CodingKey {
    case givenName = "given name"
    case odd = "quote\"and\\slash\n"
  }
}

/// Plain synthesized `Codable` with names that key styles change.
struct Persona: Codable, Equatable {
  var avatarUrl: String
  var displayName: String
  var userID: Int?
}

/// Every scalar `Codable` has, at its limits.
struct Limits: Codable, Equatable {
  var small: Int8
  var big: Int64
  var huge: UInt64
  var real: Double
  var single: Float
  var flag: Bool
}

/// A model holding Codable values at every depth.
struct Order: JSONCodable, Equatable {
  var id: Int
  var total: Price
  var lines: [Price]
  var byCode: [String: Price?]
  var discount: Price?
}

struct Shop: JSONCodable, Equatable {
  var orders: [Order]
}

/// Both `JSONCodable` and `Codable`: AutoMap's mapping wins wherever AutoMap maps it.
struct Both: JSONCodable, Codable, Equatable {
  var x: Int
  static func specificOptions() -> [String: SpecificOption] { ["x": "ex"] }
}

/// A Codable value that holds a JSONCodable one.
struct Envelope: Codable, Equatable {
  var both: Both
  var when: Date
}

struct EnvelopeHolder: JSONCodable, Equatable {
  var envelope: Envelope
}

/// A recursive Codable class, for depth and cycles.
final class Chain: Codable {
  var next: Chain?
  init(next: Chain? = nil) { self.next = next }
}

struct ChainHolder: JSONCodable {
  var chain: Chain
}

/// Checks that every entry point fails on each `(text, path, message)` with that path and
/// message (or a message starting with it, when `prefix`).
func expectDecodingErrors<T: JSONDecodable & Equatable>(
  _: T.Type, _ cases: [(text: String, path: String, message: String)], prefix: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for (text, path, message) in cases {
    guard case .failure(let error) = agreedDecoding(T.self, text) else {
      Issue.record("decoded \(text)", sourceLocation: sourceLocation)
      continue
    }
    #expect(error.path == path, "\(text)", sourceLocation: sourceLocation)
    let matches = prefix ? error.message.hasPrefix(message) : error.message == message
    #expect(matches, "\(error.message) for \(text)", sourceLocation: sourceLocation)
  }
}
