import SeedModel

/// The names SwiftData and Core Data accept for a stored property, checked at the property's
/// place before the model is built (the model's own checks know no file or column).
enum PropertyNames {
    /// Names Core Data refuses for a property: `NSObject`'s and `NSManagedObject`'s methods
    /// without parameters (Apple's NSPropertyDescription documentation: "you cannot give a
    /// property the name 'description'"); the ones a model is likely to try.
    /// `isDeleted`, `hasChanges` and the like are left out: SwiftData's `PersistentModel`
    /// answers them itself, and a real app (dashplatform) stores an `isDeleted` of its own.
    static let reserved: Set<String> = [
        "description", "debugDescription", "hash", "objectID", "entity", "managedObjectContext",
        "faultingState", "observationInfo", "class", "superclass", "self", "zone", "classForCoder",
        "isProxy", "retainCount", "autorelease", "retain", "release", "copy", "mutableCopy", "dealloc",
    ]

    /// Refuses the first property of `declaration` whose name Core Data refuses, that would be a
    /// bookkeeping column, or that differs from another only in case (both would be one column).
    static func check(_ declaration: ModelClassDeclaration) throws(ModelError) {
        var seen: [String: PropertyDeclaration] = [:]
        for property in declaration.properties {
            let name = property.name
            if reserved.contains(name) {
                throw property.place.error("'\(name)' is reserved: Core Data refuses a property named like a method of NSObject or NSManagedObject; rename it (keep the stored name with @Attribute(originalName:) if a store has it)")
            }
            if let column = DataModel.bookkeepingColumn(named: name) {
                throw property.place.error("'\(name)' would be stored in the column '\(column)', which the store keeps for its own bookkeeping; rename it")
            }
            guard name.utf8.allSatisfy({ $0 < 0x80 }), let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
                throw property.place.error("'\(name)' is not a name seedgen can store: a column name holds only ASCII letters, digits and underscores")
            }
            if let other = seen.updateValue(property, forKey: name.uppercased()), other.name != name {
                throw property.place.error("'\(name)' and '\(other.name)' (\(other.place)) differ only in case: both would be the column 'Z\(name.uppercased())'")
            }
        }
    }
}
