/// The Core Data framework a store is written for (`NSPersistenceFrameworkVersion` in its
/// metadata), and the layout rules that changed between framework versions.
///
/// Each rule is one named property with the bounds real stores show (the corpus and the stores
/// listed in the design notes). Bounds no store has pinned down are *assumed* and say so.
public struct FrameworkEra: Sendable, Hashable, CustomStringConvertible {
    /// `NSPersistenceFrameworkVersion`.
    public var version: Int

    /// The era seedgen writes unless told otherwise: 1327 (iOS 16 / macOS 13); every rule below
    /// is in its newest form from 865 on, and the real stores of 1327–1344 show the same layout.
    public static let newest = FrameworkEra(version: 1327)

    /// The oldest framework whose stores have been read (iOS 5-era SQLite stores).
    package static let oldestKnown = 419

    /// An era by its framework version.
    public init(version: Int) {
        self.version = version
    }

    /// `framework 1327`.
    public var description: String { "framework \(version)" }

    /// An `indexed="YES"` attribute gets an index named after its entity and attribute, written
    /// like a fetch index (`Z_Bot_identifier ON ZBOT (ZIDENTIFIER COLLATE BINARY ASC)`) and placed
    /// with the fetch indexes; before, `ZBOT_ZIDENTIFIER_INDEX ON ZBOT (ZIDENTIFIER)` among the
    /// column indexes. Seen: old form at 637 and 754, new form at 851, 866 and 1333; from 836.
    var namesAttributeIndexesByEntity: Bool { version >= 836 }

    /// A uniqueness constraint is a table constraint (`CONSTRAINT ZA_ZB UNIQUE (ZA, ZB)`, no
    /// index); later a `UNIQUE INDEX Z_<Entity>_UNIQUE_<a>_<b>`. Seen: table constraint at 637,
    /// unique index from 1044; the bound 836 is *assumed* (the same as the index names').
    var writesUniquenessAsTableConstraint: Bool { version < 836 }

    /// A legacy `<compoundIndex>` is written like a fetch index (`Z_<Entity>_<a>_<b> ON T (ZA
    /// COLLATE BINARY ASC, ZB COLLATE BINARY ASC)`); before, `<TABLE>_<ZA>_<ZB> ON T (ZA, ZB)`
    /// after the `Z_ENT` index. Seen: old form at 637, new form at 851; bound 836 *assumed*.
    var namesCompoundIndexesByEntity: Bool { version >= 836 }

    /// An inherited indexed attribute is indexed once per entity that has it, all on the shared
    /// table (`Z_Message_nonce_data`, `Z_TextMessage_nonce_data`, …); before, once, for the entity
    /// that declares it. Seen from 865; below that *assumed*.
    var indexesInheritedAttributesPerEntity: Bool { version >= 865 }
}
