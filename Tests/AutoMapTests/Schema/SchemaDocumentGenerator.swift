import AutoMap
import Foundation

/// Random documents from a schema (the keywords `JSON.schema(for:)` writes), valid ones and
/// ones a mutation has likely broken, for checking the schema against the decoder.
struct SchemaDocumentGenerator {
  let root: JSON
  var random: DiffRandom

  /// A document the schema should accept.
  mutating func document(_ schema: JSON, depth: Int = 0) -> JSON {
    let keywords = schema.objectMembers
    if case .string(let reference)? = keywords["$ref"] {
      let target = reference == "#" ? root : root[pointer: String(reference.dropFirst())]
      return document(target, depth: depth + 1)
    }
    if let constant = keywords["const"] { return constant }
    if case .array(let values)? = keywords["enum"], !values.isEmpty {
      return random.pick(values)
    }
    if case .array(let branches)? = keywords["anyOf"] ?? keywords["oneOf"], !branches.isEmpty {
      // Deep down, prefer null where it is a choice: recursion ends.
      if depth > 4, let null = branches.first(where: { $0 == ["type": "null"] }) {
        return document(null, depth: depth + 1)
      }
      return document(random.pick(branches), depth: depth + 1)
    }
    if case .array(let parts)? = keywords["allOf"] {
      var merged = JSON.Object()
      var own = keywords
      own["allOf"] = nil
      for part in parts + [.object(own)] {
        guard case .object(let members) = document(part, depth: depth + 1) else { continue }
        for (key, value) in members { merged[key] = value }
      }
      // A member a branch forbids (`not` enum: the default subclass's discriminator) is left
      // out.
      for part in parts {
        for (key, property) in part.objectMembers["properties"]?.objectMembers ?? [:]
        where property.objectMembers["not"] != nil {
          merged[key] = nil
        }
      }
      return .object(merged)
    }
    // A schema with properties and no type (a branch's discriminator) describes an object.
    let type: JSON? = keywords["type"] ?? (keywords["properties"] == nil ? nil : .string("object"))
    switch String(type ?? .null) {
    case "null": return nil
    case "boolean": return .bool(random.chance(50))
    case "integer":
      let low = Int64(keywords["minimum"] ?? -1000) ?? -1000
      let high = Int64(keywords["maximum"] ?? 1000) ?? 1000
      let edge = [low, high, 0, Swift.max(low, Swift.min(high, 7))]
      let value =
        random.chance(30)
        ? random.pick(edge)
        : Int64.random(in: Swift.max(low, -1000)...Swift.min(high, 1000), using: &random)
      return JSON(integerLiteral: value)
    case "number":
      return JSON(floatLiteral: Double(random.below(2000) - 1000) / 8)
    case "string":
      return .string(string(keywords))
    case "array":
      var elements: [JSON] = []
      for item in keywords["prefixItems"]?.arrayValue ?? [] {
        elements.append(document(item, depth: depth + 1))
      }
      if let items = keywords["items"] {
        for _ in 0..<(depth > 3 ? 0 : random.below(3)) {
          let element = document(items, depth: depth + 1)
          if keywords["uniqueItems"] == true, elements.contains(element) { continue }
          elements.append(element)
        }
      }
      return .array(elements)
    case "object":
      var object = JSON.Object()
      let required = Set((keywords["required"]?.arrayValue ?? []).compactMap { String($0) })
      for (key, property) in keywords["properties"]?.objectMembers ?? [:] {
        if required.contains(key) || random.chance(depth > 3 ? 20 : 70) {
          object[key] = document(property, depth: depth + 1)
        }
      }
      if let values = keywords["additionalProperties"], depth <= 3 {
        for _ in 0..<random.below(3) {
          object[name(keywords["propertyNames"])] = document(values, depth: depth + 1)
        }
      }
      return .object(object)
    default:
      return random.pick([nil, 1, "x", [true], ["k": 2.5]])  // unconstrained
    }
  }

  /// The document changed in one place: a member dropped, a value of another kind, a number
  /// out of range. It may still be valid; the test asks the schema and the decoder.
  mutating func mutated(_ value: JSON, depth: Int = 0) -> JSON {
    switch value {
    case .object(var object) where !object.isEmpty && depth < 4 && random.chance(70):
      let key = random.pick(object.keys)
      if random.chance(40) {
        object[key] = nil
      } else if let member = object[key] {
        object[key] = mutated(member, depth: depth + 1)
      }
      return .object(object)
    case .array(var elements) where !elements.isEmpty && depth < 4 && random.chance(70):
      let position = random.below(elements.count)
      elements[position] = mutated(elements[position], depth: depth + 1)
      return .array(elements)
    default:
      return random.pick([nil, "text", -1, 300, 1.5, 1e20, true, [], [:], "2024-13-45", "RED"])
    }
  }

  private mutating func string(_ keywords: JSON.Object) -> String {
    switch String(keywords["format"] ?? nil) {
    case "date-time":
      return random.pick([
        "2024-05-01T12:30:00Z", "1999-12-31T23:59:59.5Z", "2030-01-02T03:04:05+02:00",
      ])
    case "uuid": return UUID().uuidString
    case "uri-reference": return random.pick(["https://example.org/a?b=1", "relative/path", ""])
    default: break
    }
    if case .string(let pattern)? = keywords["pattern"] {
      let candidates = ["12.30", "-5.00", "00ff", "", "a", "0"].filter {
        $0.range(of: pattern, options: .regularExpression) != nil
      }
      if !candidates.isEmpty { return random.pick(candidates) }
    }
    if keywords["contentEncoding"] == "base64" {
      return Data((0..<random.below(6)).map { _ in UInt8(random.below(256)) }).base64EncodedString()
    }
    if keywords["contentMediaType"] == "application/json", let inner = keywords["contentSchema"] {
      return document(inner, depth: 3).description
    }
    return random.pick(["", "a", "hello", "ünï", "line\nbreak"])
  }

  /// A member name that `propertyNames` allows.
  private mutating func name(_ rule: JSON?) -> String {
    guard let rule else { return random.pick(["a", "b", "key", ""]) }
    if case .array(let values)? = rule.objectMembers["enum"], !values.isEmpty {
      return String(random.pick(values)) ?? "x"
    }
    if rule.objectMembers["format"] == "uuid" { return UUID().uuidString }
    if case .string(let pattern)? = rule.objectMembers["pattern"] {
      let number = random.below(2000) - (pattern.contains("-?") ? 1000 : 0)
      return String(number)
    }
    return "x"
  }
}
