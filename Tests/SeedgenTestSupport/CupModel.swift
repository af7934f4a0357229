/// A model written for the import tests: an abstract keyed entity with sub-entities, a
/// required to-one, an ordered one-to-many, a many-to-many, date patterns and defaults.
public enum CupModel {
    /// The model's `contents`.
    public static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
            <entity name="Coach" parentEntity="Human"/>
            <entity name="Group">
                <attribute name="name" attributeType="String"/>
                <relationship name="teams" optional="YES" toMany="YES" destinationEntity="Team" inverseName="group" inverseEntity="Team"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Human" isAbstract="YES">
                <attribute name="born" optional="YES" attributeType="Date">
                    <userInfo><entry key="dateFormat" value="dd.MM.yyyy"/></userInfo>
                </attribute>
                <attribute name="name" attributeType="String"/>
                <relationship name="team" optional="YES" maxCount="1" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Player" parentEntity="Human">
                <attribute name="captain" optional="YES" attributeType="Boolean" defaultValueString="NO"/>
                <attribute name="height" optional="YES" attributeType="Double"/>
                <attribute name="number" optional="YES" attributeType="Integer 16"/>
            </entity>
            <entity name="Stadium">
                <attribute name="name" attributeType="String"/>
                <relationship name="hosts" optional="YES" toMany="YES" destinationEntity="Team" inverseName="venues" inverseEntity="Team"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Team">
                <attribute name="founded" optional="YES" attributeType="Date"/>
                <attribute name="name" attributeType="String"/>
                <relationship name="group" maxCount="1" destinationEntity="Group" inverseName="teams" inverseEntity="Group"/>
                <relationship name="members" optional="YES" toMany="YES" ordered="YES" destinationEntity="Human" inverseName="team" inverseEntity="Human"/>
                <relationship name="venues" optional="YES" toMany="YES" destinationEntity="Stadium" inverseName="hosts" inverseEntity="Stadium"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """
}
