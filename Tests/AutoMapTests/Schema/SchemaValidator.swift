import AutoMap
import Foundation

/// A JSON Schema (2020-12) validator for the keywords `JSON.schema(for:)` writes, and no
/// others: an unknown keyword fails validation, so a generator change cannot go unchecked.
struct SchemaValidator {
  let root: JSON

  /// Keywords that only annotate.
  private static let annotations: Set<String> = [
    "$schema", "title", "default", "$defs", "description", "contentMediaType",
    "contentEncoding",
  ]

  /// The problems of `value` against the root schema; empty when it is valid.
  func problems(_ value: JSON) -> [String] {
    var found: [String] = []
    check(value, root, at: "", into: &found)
    return found
  }

  func isValid(_ value: JSON) -> Bool { problems(value).isEmpty }

  private func resolve(_ reference: String) -> JSON? {
    if reference == "#" { return root }
    guard reference.hasPrefix("#/") else { return nil }
    return root[pointer: String(reference.dropFirst())].isMissing
      ? nil : root[pointer: String(reference.dropFirst())]
  }

  private func check(_ value: JSON, _ schema: JSON, at path: String, into found: inout [String]) {
    guard case .object(let keywords) = schema else {
      if schema == false { found.append("\(path): false schema") }
      return
    }
    for (keyword, argument) in keywords {
      if Self.annotations.contains(keyword) { continue }
      switch keyword {
      case "$ref":
        guard case .string(let reference) = argument, let target = resolve(reference) else {
          found.append("\(path): unresolvable $ref \(argument)")
          continue
        }
        check(value, target, at: path, into: &found)
      case "type":
        if !Self.hasType(value, argument) { found.append("\(path): not \(argument): \(value)") }
      case "enum":
        if !(argument.arrayValue.contains { $0.sameJSON(value) }) {
          found.append("\(path): \(value) not in \(argument)")
        }
      case "const":
        if !argument.sameJSON(value) { found.append("\(path): \(value) is not \(argument)") }
      case "minimum":
        if case .number(let number) = value, let low = Decimal(argument),
          let n = Decimal(.number(number)),
          n < low
        {
          found.append("\(path): \(value) below \(argument)")
        }
      case "maximum":
        if case .number(let number) = value, let high = Decimal(argument),
          let n = Decimal(.number(number)),
          n > high
        {
          found.append("\(path): \(value) above \(argument)")
        }
      case "pattern":
        if case .string(let text) = value, case .string(let pattern) = argument,
          text.range(of: pattern, options: .regularExpression) == nil
        {
          found.append("\(path): \(text) does not match \(pattern)")
        }
      case "format":
        if case .string(let text) = value, !Self.hasFormat(text, argument) {
          found.append("\(path): \(text) is not a \(argument)")
        }
      case "contentSchema":
        // An annotation in 2020-12; checked here because AutoMap promises it.
        if case .string(let text) = value, let inner = try? JSON(jsonString: text) {
          check(inner, argument, at: path + "(content)", into: &found)
        } else if case .string = value {
          found.append("\(path): content is not JSON")
        }
      case "properties":
        guard case .object(let object) = value else { continue }
        for (key, propertySchema) in argument.objectMembers {
          if let member = object[key] {
            check(member, propertySchema, at: path + "/" + key, into: &found)
          }
        }
      case "required":
        guard case .object(let object) = value else { continue }
        for key in argument.arrayValue {
          if let key = String(key), object[key] == nil { found.append("\(path): no \(key)") }
        }
      case "additionalProperties":
        guard case .object(let object) = value else { continue }
        let listed = keywords["properties"]?.objectMembers ?? JSON.Object()
        for (key, member) in object where listed[key] == nil {
          check(member, argument, at: path + "/" + key, into: &found)
        }
      case "propertyNames":
        guard case .object(let object) = value else { continue }
        for (key, _) in object { check(.string(key), argument, at: path + "/" + key, into: &found) }
      case "items":
        guard case .array(let elements) = value else { continue }
        let skip = keywords["prefixItems"]?.arrayValue.count ?? 0
        for (position, element) in elements.enumerated() where position >= skip {
          check(element, argument, at: path + "/\(position)", into: &found)
        }
      case "prefixItems":
        guard case .array(let elements) = value else { continue }
        for (position, itemSchema) in argument.arrayValue.enumerated()
        where position < elements.count {
          check(elements[position], itemSchema, at: path + "/\(position)", into: &found)
        }
      case "minItems":
        if case .array(let elements) = value, let least = Int(argument), elements.count < least {
          found.append("\(path): fewer than \(least) items")
        }
      case "maxItems":
        if case .array(let elements) = value, let most = Int(argument), elements.count > most {
          found.append("\(path): more than \(most) items")
        }
      case "minProperties":
        if case .object(let members) = value, let least = Int(argument), members.count < least {
          found.append("\(path): fewer than \(least) members")
        }
      case "maxProperties":
        if case .object(let members) = value, let most = Int(argument), members.count > most {
          found.append("\(path): more than \(most) members")
        }
      case "uniqueItems":
        if case .array(let elements) = value, argument == true {
          for (i, a) in elements.enumerated()
          where elements[..<i].contains(where: { $0.sameJSON(a) }) {
            found.append("\(path): repeated item \(a)")
          }
        }
      case "anyOf":
        if !argument.arrayValue.contains(where: { subschemaHolds(value, $0, at: path) }) {
          found.append("\(path): no anyOf branch holds for \(value)")
        }
      case "oneOf":
        let holding = argument.arrayValue.filter { subschemaHolds(value, $0, at: path) }.count
        if holding != 1 { found.append("\(path): \(holding) oneOf branches hold for \(value)") }
      case "allOf":
        for branch in argument.arrayValue { check(value, branch, at: path, into: &found) }
      case "not":
        if subschemaHolds(value, argument, at: path) { found.append("\(path): not \(argument)") }
      default:
        found.append("\(path): unknown keyword \(keyword)")
      }
    }
  }

  private func subschemaHolds(_ value: JSON, _ schema: JSON, at path: String) -> Bool {
    var found: [String] = []
    check(value, schema, at: path, into: &found)
    return found.isEmpty
  }

  private static func hasType(_ value: JSON, _ type: JSON) -> Bool {
    switch (String(type), value) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array),
      ("object", .object), ("number", .number):
      return true
    case ("integer", .number(let number)):
      return Decimal(.number(number)).map { $0 == $0.rounded() } ?? false
    default: return false
    }
  }

  private static func hasFormat(_ text: String, _ format: JSON) -> Bool {
    switch String(format) {
    case "uuid": return UUID(uuidString: text) != nil
    case "date-time":
      return text.range(
        of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#,
        options: .regularExpression) != nil
    case "uri-reference": return URL(string: text) != nil
    default: return false
    }
  }
}

extension JSON {
  var arrayValue: [JSON] {
    if case .array(let elements) = self { return elements }
    return []
  }

  var objectMembers: JSON.Object {
    if case .object(let object) = self { return object }
    return JSON.Object()
  }

  /// JSON Schema equality: as `==`, strings by code points.
  func sameJSON(_ other: JSON) -> Bool {
    switch (self, other) {
    case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.array(let a), .array(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.sameJSON($1) }
    default: self == other
    }
  }
}

extension Decimal {
  /// Rounded to an integer, for the `integer` type check.
  fileprivate func rounded() -> Decimal {
    var value = self
    var result = Decimal()
    NSDecimalRound(&result, &value, 0, .plain)
    return result
  }
}
