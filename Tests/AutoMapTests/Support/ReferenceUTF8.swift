/// The standard library's verdict on `bytes` as UTF-8: the string, or `nil` when they are not
/// valid. `String(validating:as:)` where the system has it (macOS 15, iOS 18), else
/// `String._tryFromUTF8`, the check it is built on.
func referenceString(validating bytes: [UInt8]) -> String? {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
    return String(validating: bytes, as: UTF8.self)
  }
  return bytes.withUnsafeBufferPointer { String._tryFromUTF8($0) }
}
