import Foundation

// The untyped graphs of `JSONSerialization`, `UserDefaults` and Objective-C era APIs
// (`[String: Any]`, `[Any]`, `NSNumber`, `NSNull`), both ways and exactly.

extension JSON {
  /// The JSON value of an untyped graph, as `JSONSerialization.jsonObject(with:)` returns
  /// or `UserDefaults` stores: dictionaries with `String` keys, arrays, strings, numbers,
  /// booleans and `NSNull` (or `nil`), Swift or Foundation types alike.
  ///
  /// ```swift
  /// let object = try JSONSerialization.jsonObject(with: data)
  /// let json = try JSON(jsonObject: object)
  /// let user = try User(jsonObject: ["id": 7, "name": "Ada", "admin": true])
  /// ```
  ///
  /// Numbers stay exact: an `NSNumber` holding a `Bool` is `.bool` (never `1`), integers stay
  /// integers across the whole `Int64` and `UInt64` ranges, an `NSDecimalNumber` or `Decimal`
  /// keeps every digit. Dictionary members come in the order of their keys' bytes (a
  /// dictionary has no order of its own). Anything else (a `Date`, a non-`String` key, a
  /// non-finite number, a graph deeper than ``maximumDepth``, an `NSMutableArray` or
  /// `NSMutableDictionary` that contains itself) is an error naming where it is. A graph
  /// that holds one container in several places converts it in each, up to
  /// ``maximumSharedValues`` values converted again in all (containers that hold one
  /// container twice, each held twice by the next, would otherwise double the work with
  /// every level).
  public init(jsonObject: Any) throws {
    var walk = GraphWalk()
    self = try Self.converting(jsonObject, depth: 0, walk: &walk)
  }

  /// How many values ``init(jsonObject:)`` converts again for containers that a graph holds
  /// in more than one place, in all: 1 048 576. A graph that needs more is an error.
  public static var maximumSharedValues: Int { 1 << 20 }

  /// What a conversion knows of the graph so far.
  private struct GraphWalk {
    /// The containers open on the path to the value: one met again there is a cycle.
    var enclosing: Set<ObjectIdentifier> = []
    /// Every container converted so far: one met again is held in several places.
    var seen: Set<ObjectIdentifier> = []
    /// How many containers met again are open on the path to the value.
    var openAgain = 0
    /// The values converted inside containers met again.
    var convertedAgain = 0
  }

  /// This value as an untyped graph, as `JSONSerialization.jsonObject(with:)` would return
  /// it: `[String: Any]`, `[Any]`, `String`, `Bool`, `NSNull`, and numbers as `Int` (or
  /// `UInt64` above `Int.max`), `Double`, or `Decimal` for integers beyond 64 bits.
  ///
  /// ```swift
  /// UserDefaults.standard.set(try settings.json.jsonObject, forKey: "settings")
  /// ```
  public var jsonObject: Any {
    get throws {
      switch self {
      case .null: return NSNull()
      case .bool(let value): return value
      case .string(let value): return value
      case .number(let number): return number.untypedValue
      case .array(let elements):
        try Nesting.checkLevelStack(encoding: true)
        return try elements.map { try $0.jsonObject }
      case .object(let object):
        try Nesting.checkLevelStack(encoding: true)
        var dictionary: [String: Any] = [:]
        for member in object.members { dictionary[member.key] = try member.value.jsonObject }
        return dictionary
      case .missing(let error): throw error
      }
    }
  }

  /// Converts `value`, which `enclosing` Foundation containers (the ones open on the path to
  /// it) hold: a container met again on its own path is a cycle, an error instead of a
  /// conversion that never ends. `depth` counts the arrays and dictionaries around `value`.
  private static func converting(_ value: Any, depth: Int, walk: inout GraphWalk) throws -> JSON {
    try Nesting.checkLevelStack(encoding: false)
    if walk.openAgain > 0 {
      walk.convertedAgain += 1
      guard walk.convertedAgain <= maximumSharedValues else {
        throw JSON.Error(
          .custom,
          "the object graph holds containers in so many places that converting each would"
            + " take more than \(maximumSharedValues) values again")
      }
    }
    if let json = value as? JSON { return json }
    if let string = value as? String { return .string(string) }
    // Containers before the casts to `NSNull` and `NSNumber`: on Linux those bridge a Swift
    // array or dictionary to Foundation's, all of it, recursively (work for every level of
    // the graph at every level, and a stack overflow for a deep one).
    if let members = try GraphContainer(value) {
      guard depth < maximumDepth else {
        throw JSON.Error(
          .tooDeep(limit: maximumDepth),
          "the object graph nests deeper than \(maximumDepth) arrays and dictionaries")
      }
      let identity = members.identity
      var again = false
      if let identity {
        guard walk.enclosing.insert(identity).inserted else {
          throw JSON.Error(
            .typeMismatch,
            "this \(typeName(type(of: value))) contains itself (a reference cycle): JSON has no"
              + " form for it")
        }
        again = !walk.seen.insert(identity).inserted
        if again { walk.openAgain += 1 }
      }
      defer {
        if let identity { walk.enclosing.remove(identity) }
        if again { walk.openAgain -= 1 }
      }
      return try members.converted { try converting($0, depth: depth + 1, walk: &walk) }
    }
    if value is NSNull { return .null }
    if let number = value as? NSNumber { return try converting(number) }
    // `nil` inside `Any` (an `Optional` holding nothing), or the value an optional holds.
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first?.value else { return .null }
      return try converting(wrapped, depth: depth, walk: &walk)
    }
    throw JSON.Error(
      .typeMismatch,
      "\(typeName(type(of: value))) has no JSON form here: expected a dictionary with String"
        + " keys, an array, a string, a number, a boolean or NSNull")
  }

  /// The class Foundation gives booleans among `NSNumber`s (`__NSCFBoolean`).
  private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

  private static func converting(_ number: NSNumber) throws -> JSON {
    if ObjectIdentifier(type(of: number)) == booleanClass { return .bool(number.boolValue) }
    if let decimal = number as? NSDecimalNumber {
      // `NSDecimalNumber.notANumber` has no JSON form, like a `Double` NaN.
      guard !decimal.decimalValue.isNaN else {
        throw JSON.Error(.typeMismatch, "the number NaN has no JSON form (not finite)")
      }
      return .number(Number(decimal.decimalValue))
    }
    switch String(cString: number.objCType) {
    case "c", "s", "i", "l", "q": return .number(Number(number.int64Value))
    case "C", "S", "I", "L", "Q": return .number(Number(number.uint64Value))
    default:
      let value = number.doubleValue
      guard value.isFinite else {
        throw JSON.Error(.typeMismatch, "the number \(value) has no JSON form (not finite)")
      }
      return .number(Number(value))
    }
  }
}

extension JSON.Number {
  /// The number as `JSONSerialization` would hand it over: `Int`, `UInt64`, `Decimal` for
  /// integers beyond 64 bits, or `Double`.
  var untypedValue: Any {
    if let value = int64Value, let int = Int(exactly: value) { return int }
    if let value = uint64Value { return value }
    if isInteger, let decimal = decimalValue { return decimal }
    return doubleValue
  }
}

extension JSONDecodable {
  /// Decodes the model from an untyped graph (`[String: Any]` and the like), as
  /// ObjectMapper's `Mapper().map(JSON:)` and HandyJSON's `deserialize(from:)` do:
  ///
  /// ```swift
  /// let user = try User(jsonObject: ["id": 7, "name": "Ada"])
  /// ```
  ///
  /// The graph becomes a ``JSON`` value first (see ``JSON/init(jsonObject:)``), then maps
  /// as ``JSONDecodable/init(decode:)`` does.
  public init(jsonObject: Any) throws {
    try self.init(decode: JSON(jsonObject: jsonObject))
  }
}

extension JSONEncodable {
  /// The model as an untyped graph (`[String: Any]` for a model), for APIs that take one:
  /// `UserDefaults`, `NSDictionary`, Objective-C code. See ``JSON/jsonObject``.
  public var jsonObject: Any {
    get throws { try json.jsonObject }
  }
}
