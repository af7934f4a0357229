import Foundation

// Where the app finds its seed: the store the plugin built, as a resource of this target.
guard let seed = Bundle.module.url(forResource: "Shelf", withExtension: "sqlite") else {
    print("no Shelf.sqlite in the bundle")
    exit(1)
}
print(seed.path)
