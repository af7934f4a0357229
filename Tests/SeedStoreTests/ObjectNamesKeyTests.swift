import SeedModel
import SeedStore
import SeedgenTestSupport
import Testing

/// What names an object when its key names a to-one: a build's key (`--key Ingredient=recipe,name`)
/// names it within its owner; a model's uniqueness constraint over a to-one names it by its
/// values, as it always did (a record written before names it so, and must keep matching).
@Suite("Keys through a to-one")
struct ObjectNamesKeyTests {
    static func layout(constraint: String = "", recipeKey: Bool = true, in directory: TemporaryDirectory) throws -> StoreLayout {
        try StoreLayout(model: try StoreFixture.model("""
            <entity name="Ingredient">
                <attribute name="name" attributeType="String"/>
                <relationship name="recipe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe" inverseName="ingredients" inverseEntity="Recipe"/>
                \(constraint)
            </entity>
            <entity name="Recipe">
                <attribute name="name" attributeType="String"/>
                <relationship name="ingredients" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Ingredient" inverseName="recipe" inverseEntity="Ingredient"/>
                <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe"/>
                \(recipeKey ? #"<uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>"# : "")
            </entity>
            """, in: directory))
    }

    @Test("a build's key through a to-one names the owner; a model's constraint over the same to-one names nothing (was: taken as a key in the first version of the change)")
    func buildKeyOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let byBuild = try Self.layout(in: directory)
        let naming = try #require(ObjectNames(layout: byBuild, buildKeys: ["Ingredient": ["recipe", "name"]]).naming(of: "Ingredient"))
        #expect(naming.keyAttributes.map(\.attribute.name) == ["name"] && naming.keyOwner?.relationship == "recipe" && naming.keyOwner?.owner.name == "Recipe")
        let constrained = try Self.layout(constraint: #"<uniquenessConstraints><uniquenessConstraint><constraint value="name"/><constraint value="recipe"/></uniquenessConstraint></uniquenessConstraints>"#, in: directory)
        let byModel = try #require(ObjectNames(layout: constrained, buildKeys: [:]).naming(of: "Ingredient"))
        #expect(byModel.keyAttributes.isEmpty && byModel.keyOwner == nil)
    }

    @Test("a key through a to-one into an entity without a key, or keys naming their owners in a circle: no key (a store's metadata may hold what a build refuses)")
    func noOwnerKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let unkeyed = try Self.layout(recipeKey: false, in: directory)
        #expect(ObjectNames(layout: unkeyed, buildKeys: ["Ingredient": ["recipe", "name"]]).naming(of: "Ingredient")?.keyAttributes.isEmpty == true)
        let layout = try Self.layout(recipeKey: false, in: directory)
        let circle = ObjectNames(layout: layout, buildKeys: ["Recipe": ["parent", "name"]])
        #expect(circle.naming(of: "Recipe")?.keyAttributes.isEmpty == true)
        #expect(circle.keySQL(of: "Recipe", alias: "t") == nil)
    }
}
