/// Recipes keyed by name and their ingredients without a key of their own (a to-one whose
/// inverse cascades): the tests of children's identity through updates.
public enum RecipeModel {
    /// The two entities, for `StoreFixture.model` or a model file's body; `ingredientExtras`
    /// goes into Ingredient (another relationship).
    public static func entities(ingredientExtras: String = "") -> String {
        """
        <entity name="Ingredient">
            <attribute name="amount" optional="YES" attributeType="Integer 32"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="recipe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe" inverseName="ingredients" inverseEntity="Recipe"/>
            \(ingredientExtras)
        </entity>
        <entity name="Recipe">
            <attribute name="name" attributeType="String"/>
            <relationship name="ingredients" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Ingredient" inverseName="recipe" inverseEntity="Ingredient"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        """
    }
}
