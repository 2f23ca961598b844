import AutoMap
import Foundation

/// The capability rows: what each capability costs, on documents of 60 000 objects.
///
/// 1. Against Foundation on the same objects (CapabilityModels.swift): class hierarchies,
///    protocol types, `Codable` properties, enums with payloads in each case layout (generic
///    and not). Enum rows are also measured against ``SynthesizedCodableBound``: the most any
///    coder can gain over Foundation while enums go through their synthesized `Codable`.
/// 2. Against AutoMap's own plain model on the same document (1.00 = the option is free):
///    nested paths, alternatives, flattening, other decode keys, recording substitutions,
///    collecting errors, `Codable` properties, a stream of the same elements.
///
/// Each document is generated from values by `JSONEncoder`, and both sides must read back
/// what the other wrote before anything is timed.
enum CapabilityBenchmark {
  static let count = 60_000

  struct Row {
    let name: String
    let decode: [Measurement]  // ours, theirs
    let encode: [Measurement]
  }

  static func run(rounds: Int, minimum: Double, selected: (String) -> Bool) throws {
    try Figures.register()
    let foundationRows = try self.foundationRows().filter { selected($0.name) }
    let planRows = try self.planRows().filter { selected($0.name) }
    guard !foundationRows.isEmpty || !planRows.isEmpty else { return }

    print("\nCapabilities against Foundation, \(count) objects, same objects on both sides:")
    print("| capability | decode | encode |")
    print("| --- | --- | --- |")
    var bounds: [String] = []
    for row in foundationRows {
      let decode = try Timing.compare(row.decode, rounds: rounds, minimum: minimum)
      let encode = try Timing.compare(row.encode, rounds: rounds, minimum: minimum)
      print(
        "| \(row.name) | \(String(format: "%.2fx", decode[1] / decode[0])) | "
          + "\(String(format: "%.2fx", encode[1] / encode[0])) |")
      if decode.count == 3, encode.count == 3 {
        bounds.append(
          "| \(row.name) | "
            + [
              decode[1] / decode[0], decode[1] / decode[2], encode[1] / encode[0],
              encode[1] / encode[2],
            ].map { String(format: "%.2fx", $0) }.joined(separator: " | ")
            + " |")
      }
    }
    if !bounds.isEmpty {
      print(
        "\nEnums with payloads against the bound of synthesized `Codable` (SynthesizedCodableBound):"
      )
      print("| enum | decode | decode bound | encode | encode bound |")
      print("| --- | --- | --- | --- | --- |")
      for line in bounds { print(line) }
    }
    print("\nOptions and modes against AutoMap's plain model of the same document (1.00 = free):")
    print("| option or mode | speed kept |")
    print("| --- | --- |")
    for row in planRows {
      let times = try Timing.compare(row.decode, rounds: rounds, minimum: minimum)
      print("| \(row.name) | \(String(format: "%.2f", times[0] / times[1])) |")
    }
  }

  // MARK: Rows against Foundation

  private static func foundationRows() throws -> [Row] {
    var random = SplitMix(seed: 0xCAB)
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()

    let pets = (0..<count).map { index in pet(index, &random) }
    let petData = try encoder.encode(pets)
    let figures = (0..<count).map { index in figure(index, &random) }
    let boxes = figures.map { FigureBox(figure: $0) }
    let figureData = try encoder.encode(boxes)
    let invoices = (0..<count).map { index in invoice(index, &random) }
    let invoiceData = try encoder.encode(invoices)

    var rows = [
      Row(
        name: "class hierarchy, discriminator (`[Pet]`)",
        decode: try agreeing(
          petData, { try [Pet](jsonData: $0) }, { try decoder.decode([PetBox].self, from: $0) },
          ours: { try $0.json }, theirs: { try JSON(jsonData: encoder.encode($0.map(\.pet))) }),
        encode: [
          Measurement(name: "AutoMap") { _ = try pets.jsonData() },
          Measurement(name: "Foundation") { _ = try encoder.encode(pets) },
        ]),
      Row(
        name: "protocol types, registered (`[any Figure]`)",
        decode: try agreeing(
          figureData, { try JSON.decode([any Figure].self, fromJSONData: $0) },
          { try decoder.decode([FigureBox].self, from: $0) },
          ours: { try JSON.encode($0, as: [any Figure].self) },
          theirs: { try JSON(jsonData: encoder.encode($0)) }),
        encode: [
          Measurement(name: "AutoMap") { _ = try JSON.jsonData(figures, as: [any Figure].self) },
          Measurement(name: "Foundation") { _ = try encoder.encode(boxes) },
        ]),
      try sameTypeRow("`Codable` type as a property (`[Invoice]`)", invoices, invoiceData),
      try sameTypeRow(
        "plain models, same shape (`[MappedInvoice]`)",
        try decoder.decode([MappedInvoice].self, from: invoiceData), invoiceData),
    ]
    let gestures = (0..<count).map { index in gesture(index, &random) }
    rows.append(
      try sameTypeRow(
        "enum with payloads, external tag", gestures, try encoder.encode(gestures), bound: true))
    let strokes = gestures.map(Stroke.init)
    rows.append(
      try sameTypeRow(
        "enum with payloads, external tag, not generic (`[Stroke]`)", strokes,
        try encoder.encode(strokes), bound: true))
    rows.append(try boxedGestureRow(gestures, InternalTag.self, "internal tag"))
    rows.append(try boxedGestureRow(gestures, AdjacentTag.self, "adjacent tag"))
    rows.append(try boxedGestureRow(gestures, Untagged.self, "untagged"))
    rows.append(
      try strokeRow(strokes, InternalStroke.self, InternalStrokeBox.init, "internal tag"))
    rows.append(
      try strokeRow(strokes, AdjacentStroke.self, AdjacentStrokeBox.init, "adjacent tag"))
    rows.append(
      try strokeRow(strokes, UntaggedStroke.self, UntaggedStrokeBox.init, "untagged"))
    return rows
  }

  /// A row where Foundation maps the very same type by its synthesized `Codable`.
  /// `bound`: an enum with payloads, measured against ``SynthesizedCodableBound`` too.
  private static func sameTypeRow<T: Codable & JSONCodable>(
    _ name: String, _ values: [T], _ data: Data, bound: Bool = false
  )
    throws -> Row
  {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    return Row(
      name: name,
      decode: try agreeing(
        data, { try [T](jsonData: $0) }, { try decoder.decode([T].self, from: $0) },
        ours: { try $0.json }, theirs: { try $0.json })
        + (bound ? [try SynthesizedCodableBound.decode(values)] : []),
      encode: [
        Measurement(name: "AutoMap") { _ = try values.jsonData() },
        Measurement(name: "Foundation") { _ = try encoder.encode(values) },
      ] + (bound ? [SynthesizedCodableBound.encode(values)] : []))
  }

  /// A layout synthesized `Codable` lacks, on a plain enum (`E`): Foundation reads it through
  /// a hand-written `Codable` wrapper (`B`, StrokeLayouts.swift).
  private static func strokeRow<E: Codable & JSONCodable, B: Codable>(
    _ strokes: [Stroke], _: E.Type, _ box: (Stroke) -> B, _ layout: String
  ) throws -> Row {
    let boxes = strokes.map(box)
    // AutoMap's values are Foundation's document read back (`boxedRow` checks both agree).
    let values = try [E](jsonData: JSONEncoder().encode(boxes))
    return try boxedRow("enum with payloads, \(layout), not generic (`[\(E.self)]`)", values, boxes)
  }

  /// An enum layout synthesized `Codable` lacks: Foundation reads it through ``GestureBox``.
  private static func boxedGestureRow<L: LayoutChoice>(
    _ external: [Gesture<ExternalTag>], _: L.Type, _ layout: String
  ) throws -> Row {
    let values = external.map { gesture -> Gesture<L> in
      switch gesture {
      case .tap(let x, let y): .tap(x: x, y: y)
      case .swipe(let dx, let dy, let fingers): .swipe(dx: dx, dy: dy, fingers: fingers)
      case .pinch(let scale): .pinch(scale: scale)
      case .press(let seconds, let force): .press(seconds: seconds, force: force)
      }
    }
    return try boxedRow("enum with payloads, \(layout)", values, values.map(GestureBox<L>.init))
  }

  /// An enum row where Foundation maps `boxes`, hand-written wrappers of the same values, and
  /// both sides are measured against ``SynthesizedCodableBound`` too.
  private static func boxedRow<T: Codable & JSONCodable, B: Codable>(
    _ name: String, _ values: [T], _ boxes: [B]
  ) throws -> Row {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    let data = try encoder.encode(boxes)
    return Row(
      name: name,
      decode: try agreeing(
        data, { try [T](jsonData: $0) }, { try decoder.decode([B].self, from: $0) },
        ours: { try $0.json }, theirs: { try JSON(jsonData: encoder.encode($0)) })
        + [try SynthesizedCodableBound.decode(values)],
      encode: [
        Measurement(name: "AutoMap") { _ = try values.jsonData() },
        Measurement(name: "Foundation") { _ = try encoder.encode(boxes) },
        SynthesizedCodableBound.encode(values),
      ])
  }

  /// Decode measurements of both sides, after checking that they read the same values
  /// (compared as the `JSON` each writes back).
  private static func agreeing<Ours, Theirs>(
    _ data: Data, _ decodeOurs: @escaping (Data) throws -> Ours,
    _ decodeTheirs: @escaping (Data) throws -> Theirs, ours: (Ours) throws -> JSON,
    theirs: (Theirs) throws -> JSON
  ) throws -> [Measurement] {
    guard try ours(decodeOurs(data)) == theirs(decodeTheirs(data)) else {
      throw JSON.Error.custom("AutoMap and Foundation read \(Ours.self) differently")
    }
    return [
      Measurement(name: "AutoMap") { _ = try decodeOurs(data) },
      Measurement(name: "Foundation") { _ = try decodeTheirs(data) },
    ]
  }

  // MARK: Rows against the plain model

  private static func planRows() throws -> [Row] {
    var random = SplitMix(seed: 0x0B7)
    let rows = (0..<count).map { index in plainRow(index, &random) }
    let data = try JSONEncoder().encode(rows)
    let invoiceData = try JSONEncoder().encode((0..<count).map { invoice($0, &random) })
    let plain = Measurement(name: "plain") { _ = try [PlainRow](jsonData: data) }
    // Each option model must read what the plain model reads.
    let expected = try [PlainRow](jsonData: data)
    func check<T>(_ values: [T], _ project: (T) -> [String]) throws {
      let want = expected.map { [String($0.id), $0.address.city, $0.nickname ?? $0.nick ?? ""] }
      guard values.map(project) == want else {
        throw JSON.Error.custom("\(T.self) reads other values than the plain model")
      }
    }
    try check([NestedIndexRow](jsonData: data)) {
      [String($0.id), $0.city, $0.nickname ?? $0.nick ?? ""]
    }
    try check([AlternativeIndexRow](jsonData: data)) {
      [String($0.id), $0.address.city, $0.nickname]
    }
    try check([FlattenedRow](jsonData: data)) {
      [String($0.id), $0.address.city, $0.nickname ?? $0.nick ?? ""]
    }
    try check([DecodeIndexRow](jsonData: data)) {
      [String($0.identifier), $0.address.city, $0.nickname ?? $0.nick ?? ""]
    }
    let collecting = JSON.Configuration(collectsAllErrors: true)
    func versusPlain(_ name: String, _ body: @escaping () throws -> Void) -> Row {
      Row(name: name, decode: [plain, Measurement(name: "AutoMap") { try body() }], encode: [])
    }
    return [
      versusPlain("`.index([\"address\", \"city\"])`, nested paths") {
        _ = try [NestedIndexRow](jsonData: data)
      },
      versusPlain("`.alternativeIndex(\"nick\")`") {
        _ = try [AlternativeIndexRow](jsonData: data)
      },
      versusPlain("`.index([])`, flattening") { _ = try [FlattenedRow](jsonData: data) },
      versusPlain("`.decodeIndex(\"name\")`") { _ = try [DecodeIndexRow](jsonData: data) },
      versusPlain("inside `JSON.recordingSubstitutions`") {
        _ = try JSON.recordingSubstitutions { try [PlainRow](jsonData: data) }
      },
      versusPlain("`collectsAllErrors` on a document that decodes") {
        _ = try [PlainRow](jsonData: data, configuration: collecting)
      },
      versusPlain("`SyncJSONStream` of the same elements") {
        var iterator = SyncJSONStream(of: PlainRow.self, data: data).makeIterator()
        while try iterator.nextElement() != nil {}
      },
      Row(
        name: "`Codable` property vs the same shape as plain models",
        decode: [
          Measurement(name: "plain") { _ = try [MappedInvoice](jsonData: invoiceData) },
          Measurement(name: "AutoMap") { _ = try [Invoice](jsonData: invoiceData) },
        ], encode: []),
    ]
  }

  // MARK: Values

  private static func amount(_ random: inout SplitMix) -> Double {
    Double(random.next(1_000_000)) / 100 + 0.005
  }

  private static func pet(_ index: Int, _ random: inout SplitMix) -> Pet {
    let pet: Pet
    switch index % 3 {
    case 0:
      let dog = Dog()
      dog.breed = ["collie", "pug", "akita"][random.next(3)]
      dog.barks = random.next(2) == 0
      pet = dog
    case 1:
      let cat = Cat()
      cat.lives = random.next(10)
      cat.indoor = random.next(2) == 0
      pet = cat
    default:
      let bird = Bird()
      bird.wingspan = amount(&random)
      bird.song = "tweet \(index)"
      pet = bird
    }
    pet.name = "pet \(index)"
    pet.age = random.next(20)
    pet.weight = amount(&random)
    return pet
  }

  private static func figure(_ index: Int, _ random: inout SplitMix) -> any Figure {
    let label = "figure \(index)"
    switch index % 3 {
    case 0:
      return Circle(x: amount(&random), y: amount(&random), radius: amount(&random), label: label)
    case 1:
      return Rectangle(
        x: amount(&random), y: amount(&random), width: amount(&random), height: amount(&random),
        label: label)
    default:
      return Polygon(
        points: (0..<6).map { _ in amount(&random) }, closed: random.next(2) == 0, label: label)
    }
  }

  private static func invoice(_ index: Int, _ random: inout SplitMix) -> Invoice {
    func money() -> Money {
      Money(amount: amount(&random), currency: ["EUR", "USD", "JPY"][random.next(3)])
    }
    return Invoice(
      id: index, customer: "customer \(index)", total: money(),
      lines: (0..<(1 + random.next(4))).map { _ in money() },
      discount: random.next(2) == 0 ? nil : money())
  }

  private static func gesture(_ index: Int, _ random: inout SplitMix) -> Gesture<ExternalTag> {
    switch index % 4 {
    case 0: .tap(x: random.next(2000), y: random.next(2000))
    case 1: .swipe(dx: amount(&random), dy: amount(&random), fingers: 1 + random.next(3))
    case 2: .pinch(scale: amount(&random))
    default: .press(seconds: amount(&random), force: amount(&random))
    }
  }

  private static func plainRow(_ index: Int, _ random: inout SplitMix) -> PlainRow {
    let nickname = "nick \(index)"
    let street = "\(random.next(999)) Main Street"
    return PlainRow(
      id: index, name: "user \(index)", nickname: index % 2 == 0 ? nickname : nil,
      nick: index % 2 == 0 ? nil : nickname,
      address: RowAddress(
        street: street, city: "city \(random.next(500))", zip: "\(10_000 + index)"),
      lat: amount(&random), lng: amount(&random))
  }
}
