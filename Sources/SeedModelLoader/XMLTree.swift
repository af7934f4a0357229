import SeedModel
import Foundation
import SeedgenLibXML2
