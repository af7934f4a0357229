import ArgumentParser

/// `--schema A,B,C`: which `@Model` classes of SwiftData sources make the model.
struct SchemaOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "With SwiftData sources as --model: the model classes as the app passes them to ModelContainer(for:), comma-separated (Trip or SchemaV1.Trip); classes they reach by relationships join them. Default: every @Model class found.",
            valueName: "types"
        ),
        transform: { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    )
    var schema: [String]?
}
