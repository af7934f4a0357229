import Foundation

// The app's side: the seed is a resource of the bundle (SwiftData opens it, once installed, with
// ModelConfiguration(url:)); this example prints where it is.
guard let seed = Bundle.module.url(forResource: "Recipes", withExtension: "sqlite") else {
    print("no Recipes.sqlite in the bundle")
    exit(1)
}
print(seed.path)
