import Foundation

final class Sealed: Operation, @unchecked Sendable {}

class NotAnOperation {}

class NeedsAURL: Operation, @unchecked Sendable {
    let url: String

    init(url: String) {
        self.url = url
        super.init()
    }
}
