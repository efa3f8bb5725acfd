/// The object tests hand to `withUnretained`, `subscribe(with:)`, `bind(with:)` and
/// `drive(with:)`: a class instance whose lifetime the test controls. `name` tells two
/// apart in what a test records; `log` keeps what closures given the object write on it.
public final class Owner {
    public let name: String
    public var log: [String] = []

    public init(name: String = "owner") {
        self.name = name
    }
}
