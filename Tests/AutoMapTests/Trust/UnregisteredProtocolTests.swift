import AutoMap
import Foundation
import Testing

// Issue 20, finding 4: a protocol type nobody registered is refused with advice on how to
// register it, whether the property holds it bare or inside an optional, array or dictionary.

protocol UnregisteredGadget {}

struct BareGadget: JSONCodable { var gadget: any UnregisteredGadget }
struct OptionalGadget: JSONCodable { var gadget: (any UnregisteredGadget)? }
struct ArrayGadgets: JSONCodable { var gadgets: [any UnregisteredGadget] }
struct DictionaryGadgets: JSONCodable { var gadgets: [String: any UnregisteredGadget] }
struct NestedGadgets: JSONCodable { var gadgets: [[String: (any UnregisteredGadget)?]]? }

@Suite("An unregistered protocol type says how to register it, wrapped or bare")
struct UnregisteredProtocolTests {
  static let advice =
    "A protocol type maps once its conforming types are registered:"
    + " JSON.registerPolymorphic((any UnregisteredGadget).self, types: […])"

  func refusal<T: JSONDecodable>(_: T.Type, property: String) {
    let error = #expect(throws: JSON.Error.self) { try T(jsonString: "{}") }
    #expect(error?.kind == .invalidModel)
    #expect(
      error?.message.contains("\(T.self).\(property)") == true, "\(String(describing: error))")
    #expect(error?.message.contains(Self.advice) == true, "\(String(describing: error))")
    #expect(error?.message.contains("Make it conform") == false, "\(String(describing: error))")
  }

  @Test("bare, optional, array, dictionary and nested forms give the same advice")
  func everyForm() {
    refusal(BareGadget.self, property: "gadget")
    refusal(OptionalGadget.self, property: "gadget")
    refusal(ArrayGadgets.self, property: "gadgets")
    refusal(DictionaryGadgets.self, property: "gadgets")
    refusal(NestedGadgets.self, property: "gadgets")
  }

  @Test("the generic entry points give it too")
  func genericEntryPoints() {
    let error = #expect(throws: JSON.Error.self) {
      try JSON.decode([any UnregisteredGadget].self, from: [])
    }
    #expect(error?.kind == .invalidModel)
    #expect(error?.message.contains(Self.advice) == true, "\(String(describing: error))")
    let encoding = #expect(throws: JSON.Error.self) {
      try JSON.encode([:], as: [String: any UnregisteredGadget].self)
    }
    #expect(encoding?.kind == .invalidModel)
    #expect(encoding?.message.contains(Self.advice) == true, "\(String(describing: encoding))")
  }

  @Test("encoding a model with a wrapped protocol type gives the advice")
  func encoding() {
    let error = #expect(throws: JSON.Error.self) { try OptionalGadget(gadget: nil).json }
    #expect(error?.kind == .invalidModel)
    #expect(error?.message.contains("OptionalGadget.gadget") == true)
    #expect(error?.message.contains(Self.advice) == true, "\(String(describing: error))")
  }
}
