// swift-tools-version: 6.1
// A SwiftData app's package that builds its seed with SeedgenSwiftDataPlugin: the @Model
// sources in Sources/RecipeApp/Seeds/Recipes/Model/ and the data beside them (the repository's
// Seeds/Recipes, which SeedgenSwiftDataPluginTests copies in) become the resource
// Recipes.sqlite on `swift build` (a real app's models are its target's own sources, which the
// plugin reads when there is no Model/ folder; SwiftData compiles on Apple platforms only, so
// this Linux example keeps them in the seed folder). `make plugin-swiftdata` builds and runs it.
import PackageDescription

let package = Package(
    name: "SwiftDataPluginExample",
    dependencies: [
        .package(name: "seedgen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "RecipeApp",
            exclude: ["Seeds"],
            plugins: [.plugin(name: "SeedgenSwiftDataPlugin", package: "seedgen")]
        ),
    ]
)
