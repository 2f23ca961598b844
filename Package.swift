// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "AutoMap",
  products: [
    .library(name: "AutoMap", targets: ["AutoMap"])
  ],
  targets: [
    // Locale-independent, correctly rounded `strtod` for the number parser.
    .target(name: "CAutoMapShims"),
    .target(name: "AutoMap", dependencies: ["CAutoMapShims"]),
    .executableTarget(name: "Playground", dependencies: ["AutoMap"], path: "Playground"),
    .executableTarget(name: "Benchmarks", dependencies: ["AutoMap"], path: "Benchmarks"),
    .testTarget(name: "AutoMapTests", dependencies: ["AutoMap"]),
  ],
  swiftLanguageModes: [.v6]
)
