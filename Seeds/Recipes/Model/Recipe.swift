// The SwiftData model of a recipes app, as the app declares it. `make seed` reads these classes
// (seedgen build --model Seeds/Recipes/Model) and builds Recipes.sqlite from recipes.json.
import Foundation
import SwiftData

@Model
final class Recipe {
    #Index<Recipe>([\.title])
    @Attribute(.unique) var title: String
    var minutes: Int = 30
    var serves: Int = 2
    var vegetarian = false
    var notes: String?
    @Relationship(deleteRule: .cascade, inverse: \Ingredient.recipe) var ingredients: [Ingredient] = []
    var cuisine: Cuisine?
    var difficulty: Difficulty
    var tags: [String] = []
    var timing: Timing?

    init(title: String, difficulty: Difficulty = .easy) {
        self.title = title
        self.difficulty = difficulty
    }
}

/// Stored by SwiftData as a Composite of one String element, the raw value.
enum Difficulty: String, Codable {
    case easy, medium, hard = "challenging"
}

/// Stored by SwiftData as a Composite: one column per property, the array as JSON text.
struct Timing: Codable {
    var prepare: Int
    var cook: Int
    var steps: [String]?
}

@Model
final class Ingredient {
    var name: String
    var grams: Double?
    var recipe: Recipe?

    init(name: String, grams: Double? = nil) {
        self.name = name
        self.grams = grams
    }
}

@Model
final class Cuisine {
    #Unique<Cuisine>([\.name])
    var name: String
    var recipes: [Recipe] = []

    init(name: String) {
        self.name = name
    }
}
