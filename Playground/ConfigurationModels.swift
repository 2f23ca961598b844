import AutoMap
import Foundation

// The models of section 19: per-call configuration, JSON inside strings, a property's own
// key style.

struct Shipment: JSONCodable {
  var trackingCode: String
  var shippedAt: Date
}

struct WebhookDelivery: JSONCodable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var eventType: String
  var requestID: String
  var payload: ChargePayload

  static func specificOptions() -> [String: SpecificOption] {
    ["payload": .embeddedJSON, "requestID": .keyStyle(.kebabCase)]
  }
}

struct ChargePayload: JSONCodable {
  var id: Int
  var amount: Double
}
