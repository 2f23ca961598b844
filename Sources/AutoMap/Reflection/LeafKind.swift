/// The leaf types the decode and encode loops handle inline, without a codec call: the common
/// scalars and their optionals. Everything else goes through its codec.
enum LeafKind {
  case int, int64, int32, double, bool, string
  case optionalInt, optionalInt64, optionalDouble, optionalBool, optionalString

  var isOptional: Bool {
    switch self {
    case .optionalInt, .optionalInt64, .optionalDouble, .optionalBool, .optionalString: true
    default: false
    }
  }

  init?(_ type: Any.Type) {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(Int.self): self = .int
    case ObjectIdentifier(Int64.self): self = .int64
    case ObjectIdentifier(Int32.self): self = .int32
    case ObjectIdentifier(Double.self): self = .double
    case ObjectIdentifier(Bool.self): self = .bool
    case ObjectIdentifier(String.self): self = .string
    case ObjectIdentifier(Int?.self): self = .optionalInt
    case ObjectIdentifier(Int64?.self): self = .optionalInt64
    case ObjectIdentifier(Double?.self): self = .optionalDouble
    case ObjectIdentifier(Bool?.self): self = .optionalBool
    case ObjectIdentifier(String?.self): self = .optionalString
    default: return nil
    }
  }
}

extension JSONReader {
  /// Reads a leaf value into `target`, initializing it (`initialize`) or replacing the value
  /// it holds.
  @inline(__always)
  mutating func readLeaf(_ kind: LeafKind, into target: UnsafeMutableRawPointer, initialize: Bool)
    throws
  {
    switch kind {
    // Trivial types: initializing and replacing are the same store.
    case .int: RawValue.initialize(target, to: try readInteger(Int.self))
    case .int64: RawValue.initialize(target, to: try readInteger(Int64.self))
    case .int32: RawValue.initialize(target, to: try readInteger(Int32.self))
    case .double: RawValue.initialize(target, to: try readConfiguredDouble())
    case .bool: RawValue.initialize(target, to: try readBool())
    case .string: RawValue.put(try readStringValue(), at: target, initialize: initialize)
    case .optionalInt:
      RawValue.put(
        try consumeNull() ? nil : try readInteger(Int.self), at: target, initialize: initialize)
    case .optionalInt64:
      RawValue.put(
        try consumeNull() ? nil : try readInteger(Int64.self), at: target, initialize: initialize)
    case .optionalDouble:
      RawValue.put(
        try consumeNull() ? nil : try readConfiguredDouble(), at: target, initialize: initialize)
    case .optionalBool:
      RawValue.put(try consumeNull() ? nil : try readBool(), at: target, initialize: initialize)
    case .optionalString:
      RawValue.put(
        try consumeNull() ? nil : try readStringValue(), at: target, initialize: initialize)
    }
  }
}

extension JSONWriter {
  /// Writes the leaf value at `address`, read in place (a `String` is not copied).
  @inline(__always)
  mutating func writeLeaf(_ kind: LeafKind, at address: UnsafeRawPointer) throws {
    switch kind {
    case .int: writeInteger(RawValue.load(address, as: Int.self))
    case .int64: writeInteger(RawValue.load(address, as: Int64.self))
    case .int32: writeInteger(RawValue.load(address, as: Int32.self))
    case .double: try writeDouble(RawValue.load(address, as: Double.self))
    case .bool: writeBool(RawValue.load(address, as: Bool.self))
    case .string: writeString(at: address.assumingMemoryBound(to: String.self))
    case .optionalInt:
      if let value = RawValue.load(address, as: Int?.self) {
        writeInteger(value)
      } else {
        writeNull()
      }
    case .optionalInt64:
      if let value = RawValue.load(address, as: Int64?.self) {
        writeInteger(value)
      } else {
        writeNull()
      }
    case .optionalDouble:
      if let value = RawValue.load(address, as: Double?.self) {
        try writeDouble(value)
      } else {
        writeNull()
      }
    case .optionalBool:
      if let value = RawValue.load(address, as: Bool?.self) {
        writeBool(value)
      } else {
        writeNull()
      }
    case .optionalString:
      if address.assumingMemoryBound(to: String?.self).pointee == nil {
        writeNull()
      } else {
        writeString(at: RawValue.payload(ofSome: address).assumingMemoryBound(to: String.self))
      }
    }
  }
}
