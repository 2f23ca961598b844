/// The scalar kind a `.lossless` property's JSON is converted to before decoding.
enum LosslessTarget {
  case integer, floating, bool, string

  /// The target for a property type: a scalar, or optionals, arrays and sets of one.
  init?(_ type: Any.Type) {
    var type = type
    while let wrapper = type as? any WrapperTypeProviding.Type { type = wrapper.wrappedType }
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self),
      ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self),
      ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self),
      ObjectIdentifier(UInt64.self):
      self = .integer
    case ObjectIdentifier(Double.self), ObjectIdentifier(Float.self): self = .floating
    case ObjectIdentifier(Bool.self): self = .bool
    case ObjectIdentifier(String.self): self = .string
    default: return nil
    }
  }

  /// `json` in the target's own spelling when it has one of the accepted others; otherwise
  /// unchanged, so decoding reports the mismatch as usual.
  func convert(_ json: JSON) -> JSON {
    switch (self, json) {
    case (_, .array(let elements)): return .array(elements.map(convert))
    case (.integer, .string(let text)), (.floating, .string(let text)):
      // The whole string must be a JSON number: no spaces, no trailing text.
      guard let first = text.utf8.first, let last = text.utf8.last, first > 0x20, last > 0x20,
        case .number(let number)? = try? JSON(strictString: text)
      else { return json }
      return .number(number)
    case (.string, .number(let number)): return .string(number.description)
    case (.string, .bool(let bool)): return .string(bool ? "true" : "false")
    case (.bool, .string("true")): return .bool(true)
    case (.bool, .string("false")): return .bool(false)
    case (.bool, .number(let number)) where number.int64Value == 0: return .bool(false)
    case (.bool, .number(let number)) where number.int64Value == 1: return .bool(true)
    default: return json
    }
  }
}

/// Types that wrap one element type: optionals, arrays, sets.
protocol WrapperTypeProviding {
  static var wrappedType: Any.Type { get }
}

extension Optional: WrapperTypeProviding {
  static var wrappedType: Any.Type { Wrapped.self }
}

extension Array: WrapperTypeProviding {
  static var wrappedType: Any.Type { Element.self }
}

extension Set: WrapperTypeProviding {
  static var wrappedType: Any.Type { Element.self }
}
