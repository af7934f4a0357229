import Foundation

/// Computes Core Data's entity version hashes: the 32-byte SHA-256 values a store keeps in
/// `NSStoreModelVersionHashes` to tell whether it fits a model.
///
/// Strings are UTF-8 without terminator; integers little-endian. Not hashed: class names,
/// transformers, defaults, `indexed`, fetch indexes, renaming identifiers, fetched properties.
package struct VersionHasher: Sendable {
    private let model: DataModel

    /// A hasher for the entities of `model`.
    package init(model: DataModel) {
        self.model = model
    }

    /// Every entity's version hash, by entity name. Each entity's hash and each property's is
    /// computed once (a sub-entity's includes its parent's), so a deep inheritance chain costs
    /// time in proportion to the properties it holds, not to the cube of its depth.
    package func entityHashes() -> [String: [UInt8]] {
        var cache = Cache()
        for entity in model.entities {
            _ = hash(of: entity, cache: &cache)
        }
        return cache.entities
    }

    /// SHA256(name ‖ uint8 isAbstract ‖ parent hash ‖ property hashes by name ‖ modifier ‖ constraints).
    package func hash(of entity: EntityDescription) -> [UInt8] {
        var cache = Cache()
        return hash(of: entity, cache: &cache)
    }

    /// Hashes already computed: entities by name, properties by declaring entity and name.
    private struct Cache {
        var entities: [String: [UInt8]] = [:]
        /// Per entity: its stored properties' (name, hash), inherited ones included, by name.
        var properties: [String: [(name: String, hash: [UInt8])]] = [:]
    }

    private func hash(of entity: EntityDescription, cache: inout Cache) -> [UInt8] {
        if let known = cache.entities[entity.name] { return known }
        // Ancestors first, iteratively: a chain of any depth never deepens the stack.
        let lineage = model.lineage(of: entity)
        for ancestor in lineage.dropFirst().reversed() where cache.entities[ancestor.name] == nil {
            cache.entities[ancestor.name] = computeHash(of: ancestor, cache: &cache)
        }
        let result = computeHash(of: entity, cache: &cache)
        cache.entities[entity.name] = result
        return result
    }

    /// The hash of `entity` once its parent's is in `cache`.
    private func computeHash(of entity: EntityDescription, cache: inout Cache) -> [UInt8] {
        var bytes = HashInput()
        bytes.append(entity.name)
        bytes.append(UInt8(entity.isAbstract ? 1 : 0))
        var properties: [(name: String, hash: [UInt8])] = []
        if let parent = model.parent(of: entity) {
            bytes.append(cache.entities[parent.name]!)
            properties = cache.properties[parent.name] ?? []
        }
        for attribute in entity.attributes where !attribute.isTransient {
            properties.append((attribute.name, Self.hash(of: attribute)))
        }
        for relationship in entity.relationships where !relationship.isTransient {
            properties.append((relationship.name, Self.hash(of: relationship)))
        }
        properties.sort { DataModel.namePrecedes($0.name, $1.name) }
        cache.properties[entity.name] = properties
        for property in properties {
            bytes.append(property.hash)
        }
        if let modifier = entity.versionHashModifier { bytes.append(modifier) }
        for constraint in entity.uniquenessConstraints {
            bytes.append(constraint.joined(separator: "."))
        }
        return bytes.sha256()
    }

    /// SHA256(property part ‖ uint32 type code ‖ 0x01 if external storage ‖ 0x01 if preserved after deletion).
    ///
    /// A Composite's hash is SHA256 over its elements' hashes, elements in name order; its own
    /// name, flags and type are not part of it (every entity of five real SwiftData stores).
    package static func hash(of attribute: AttributeDescription) -> [UInt8] {
        if let elements = attribute.elements {
            var bytes = HashInput()
            for element in elements.sorted(by: { DataModel.namePrecedes($0.name, $1.name) }) {
                bytes.append(hash(of: element))
            }
            return bytes.sha256()
        }
        var bytes = HashInput()
        bytes.append(propertyPart(
            name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            modifier: attribute.versionHashModifier
        ))
        bytes.append(attribute.type.code)
        if attribute.allowsExternalBinaryDataStorage { bytes.append(UInt8(1)) }
        if attribute.preserveAfterDeletion { bytes.append(UInt8(1)) }
        return bytes.sha256()
    }

    /// SHA256(property part ‖ destination ‖ inverse name ‖ uint32 max ‖ uint32 min ‖ uint16 1 if ordered).
    package static func hash(of relationship: RelationshipDescription) -> [UInt8] {
        var bytes = HashInput()
        bytes.append(propertyPart(
            name: relationship.name, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
            modifier: relationship.versionHashModifier
        ))
        bytes.append(relationship.destinationEntity)
        if let inverse = relationship.inverseName, !relationship.isOwnInverse {
            bytes.append(inverse)
        }
        bytes.append(UInt32(truncatingIfNeeded: relationship.maxCount))
        bytes.append(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { bytes.append(UInt16(1)) }
        return bytes.sha256()
    }

    /// SHA256(name ‖ uint16 flags ‖ modifier), flags: optional 1, transient 2, read-only 4.
    private static func propertyPart(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> [UInt8] {
        var bytes = HashInput()
        bytes.append(name)
        bytes.append(UInt16((isOptional ? 1 : 0) | (isTransient ? 2 : 0)))
        if let modifier { bytes.append(modifier) }
        return bytes.sha256()
    }

    /// `NSStoreModelVersionHashesDigest`: base64(SHA-512 over each entity's name and hash, in name order).
    package static func hashesDigest(_ hashes: [String: [UInt8]]) -> String {
        var input: [UInt8] = []
        for name in hashes.keys.sorted(by: DataModel.namePrecedes) {
            input += Array(name.utf8) + hashes[name]!
        }
        return Data(SHA512.hash(data: input)).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey`: base64(SHA-256 over the hashes, in entity name order).
    package static func checksum(_ hashes: [String: [UInt8]]) -> String {
        var input: [UInt8] = []
        for name in hashes.keys.sorted(by: DataModel.namePrecedes) {
            input += hashes[name]!
        }
        return Data(SHA256.hash(data: input)).base64EncodedString()
    }
}

extension RelationshipDescription {
    /// True when the relationship names itself as its inverse (a symmetric self-relationship).
    var isOwnInverse: Bool {
        inverseName == name && (inverseEntity ?? destinationEntity) == destinationEntity
    }
}
