// TEMPORARY until the name constraints checker lands.
public struct NameConstraintViolation: Hashable, Sendable, CustomStringConvertible {
    public let name: GeneralName
    public var description: String { "\(name)" }
}
enum NameConstraintsResult { case satisfied, violation(NameConstraintViolation), budgetExhausted }
struct NameConstraintsChecker {
    static func check(subject: Name, subjectAlternativeNames: [GeneralName]?, constraints: NameConstraints, comparisons: inout Int) -> NameConstraintsResult { .satisfied }
}
