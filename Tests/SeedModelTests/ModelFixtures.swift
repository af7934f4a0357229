/// Model `contents` documents written for the tests.
enum ModelFixtures {
    /// Wraps entity XML into a model document.
    static func model(_ body: String, identifier: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(identifier)">
        \(body)
        </model>
        """
    }

    /// A model with inheritance, every relationship kind, constraints, a fetch index,
    /// userInfo, a fetched property and fetch request templates.
    static let league = model("""
        <entity name="Human" isAbstract="YES" elementID="Person">
            <attribute name="givenname" optional="YES" attributeType="String"/>
            <attribute name="name" attributeType="String"/>
            <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
        </entity>
        <entity name="Coach" parentEntity="Human">
            <attribute name="since" optional="YES" attributeType="Date" defaultDateTimeInterval="697386720">
                <userInfo><entry key="dateFormat" value="yyyy"/></userInfo>
            </attribute>
        </entity>
        <entity name="Player" parentEntity="Human">
            <attribute name="number" optional="YES" attributeType="Integer 16" defaultValueString="0" indexed="YES"/>
        </entity>
        <entity name="Team" versionHashModifier="2">
            <attribute name="name" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Human" inverseName="team" inverseEntity="Human"/>
            <relationship name="rivals" optional="YES" toMany="YES" minCount="1" maxCount="5" destinationEntity="Team" inverseName="rivalOf" inverseEntity="Team"/>
            <relationship name="rivalOf" optional="YES" toMany="YES" destinationEntity="Team" inverseName="rivals" inverseEntity="Team"/>
            <fetchedProperty name="strikers" optional="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Player" predicateString="team == $FETCH_SOURCE"/>
            </fetchedProperty>
            <fetchIndex name="byName">
                <fetchIndexElement property="name" type="Binary" order="descending"/>
            </fetchIndex>
            <uniquenessConstraints>
                <uniquenessConstraint><constraint value="name"/></uniquenessConstraint>
            </uniquenessConstraints>
            <userInfo><entry key="owner" value="uefa"/></userInfo>
        </entity>
        <fetchRequest name="initialisationCheck" entity="Team" predicateString="name == &quot;Deutschland&quot;" fetchLimit="1" includeSubentities="YES"/>
        <fetchRequest name="all" entity="Human"/>
        """, identifier: "7")
}
