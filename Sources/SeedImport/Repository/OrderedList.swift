import SeedModel
import SeedStore

/// One owner's ordered to-many: the owner's table and `Z_PK`, and the relationship.
struct OrderedList: Hashable {
    var table: String
    var relationship: String
    var holder: Int64
}
