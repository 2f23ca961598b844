/// A property wrapper that maps through its wrapped value.
///
/// A wrapped property (`@Clamped var volume: Int`) is stored as `_volume`, of the wrapper's
/// type. AutoMap maps it under the key `volume`, never `_volume`, and through the wrapper:
///
/// - a wrapper that is itself ``JSONDecodable``/``JSONEncodable`` maps as its own type;
/// - a wrapper that adopts `JSONPropertyWrapper` maps its `wrappedValue`: decoding reads a
///   `WrappedValue` and calls `init(wrappedValue:)`, encoding writes `wrappedValue`.
///
/// ```swift
/// @propertyWrapper
/// struct Clamped: JSONPropertyWrapper {
///   private var value: Int
///   init(wrappedValue: Int) { value = min(max(wrappedValue, 0), 100) }
///   var wrappedValue: Int {
///     get { value }
///     set { value = min(max(newValue, 0), 100) }
///   }
/// }
///
/// struct Mixer: JSONCodable, DefaultInitable {
///   @Clamped var volume = 50
/// }
///
/// try Mixer(jsonString: #"{"volume": 250}"#).volume   // 100: the wrapper's rule holds
/// ```
///
/// A wrapper that does neither is refused the first time the model is used, with an error
/// that names the property; mark the property `.ignore` to leave it out.
public protocol JSONPropertyWrapper {
  /// The type of the wrapped value, which must be mappable.
  associatedtype WrappedValue
  /// Wraps a decoded value.
  init(wrappedValue: WrappedValue)
  /// The value to encode.
  var wrappedValue: WrappedValue { get }
}
