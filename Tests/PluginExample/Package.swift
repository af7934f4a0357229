// swift-tools-version: 6.1
// An app package that builds its seed with seedgen's plugin: Sources/ShelfApp/Seeds/Shelf/ (a
// model and its data) becomes the resource Shelf.sqlite on `swift build`; the app installs it
// and runs the model's initialisationCheck with the model the seed carries (a Linux app needs
// nothing else). SeedgenPluginTests builds and runs it.
import PackageDescription

let package = Package(
    name: "PluginExample",
    dependencies: [
        .package(name: "seedgen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ShelfApp",
            dependencies: [.product(name: "SeedRuntime", package: "seedgen"), .product(name: "SeedStore", package: "seedgen")],
            exclude: ["Seeds"],
            plugins: [.plugin(name: "SeedgenPlugin", package: "seedgen")]
        ),
    ]
)
