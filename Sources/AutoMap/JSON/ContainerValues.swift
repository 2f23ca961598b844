/// The values of an array or an object, for walks that go down and back up without recursion.
enum ContainerValues {
  case elements([JSON])
  case members([JSON.Object.Member])

  /// The values of `json`, or nil when it is not a container.
  init?(_ json: JSON) {
    switch json {
    case .array(let elements): self = .elements(elements)
    case .object(let object): self = .members(object.members)
    default: return nil
    }
  }

  var count: Int {
    switch self {
    case .elements(let elements): elements.count
    case .members(let members): members.count
    }
  }

  subscript(position: Int) -> JSON {
    switch self {
    case .elements(let elements): elements[position]
    case .members(let members): members[position].value
    }
  }
}
