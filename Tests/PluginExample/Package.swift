// swift-tools-version: 6.1
// An app package that builds its seed with seedgen's plugin: Sources/ShelfApp/Seeds/Shelf/ (a
// model and its data) becomes the resource Shelf.sqlite on `swift build`. SeedgenPluginTests
// builds it and checks the store.
import PackageDescription

let package = Package(
    name: "PluginExample",
    dependencies: [
        .package(name: "seedgen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ShelfApp",
            exclude: ["Seeds"],
            plugins: [.plugin(name: "SeedgenPlugin", package: "seedgen")]
        ),
    ]
)
