import Foundation

class Broken: Operation, @unchecked Sendable {
    override func main() {
        let count: Int = "three"
        print(count)
    }
}
