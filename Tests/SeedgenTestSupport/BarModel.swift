/// A model shaped like a real app's, with no uniqueness constraint anywhere: shared glasses,
/// keyless steps in an ordered to-many, a many-to-many of ingredients, people (the README's
/// worked example).
public enum BarModel {
    /// The model's `contents`.
    public static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Cocktail">
                <attribute name="name" attributeType="String"/>
                <relationship name="glass" optional="YES" maxCount="1" destinationEntity="Glass" inverseName="cocktails" inverseEntity="Glass"/>
                <relationship name="ingredients" optional="YES" toMany="YES" destinationEntity="Ingredient" inverseName="cocktails" inverseEntity="Ingredient"/>
                <relationship name="steps" optional="YES" toMany="YES" ordered="YES" destinationEntity="Step" inverseName="cocktail" inverseEntity="Step"/>
                <relationship name="inventor" optional="YES" maxCount="1" destinationEntity="Person" inverseName="inventions" inverseEntity="Person"/>
            </entity>
            <entity name="Glass">
                <attribute name="name" attributeType="String"/>
                <attribute name="size" optional="YES" attributeType="Integer 16"/>
                <relationship name="cocktails" optional="YES" toMany="YES" destinationEntity="Cocktail" inverseName="glass" inverseEntity="Cocktail"/>
            </entity>
            <entity name="Ingredient">
                <attribute name="name" attributeType="String"/>
                <relationship name="cocktails" optional="YES" toMany="YES" destinationEntity="Cocktail" inverseName="ingredients" inverseEntity="Cocktail"/>
            </entity>
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <relationship name="inventions" optional="YES" toMany="YES" destinationEntity="Cocktail" inverseName="inventor" inverseEntity="Cocktail"/>
            </entity>
            <entity name="Step">
                <attribute name="text" attributeType="String"/>
                <relationship name="cocktail" optional="YES" maxCount="1" destinationEntity="Cocktail" inverseName="steps" inverseEntity="Cocktail"/>
            </entity>
        </model>
        """
}
