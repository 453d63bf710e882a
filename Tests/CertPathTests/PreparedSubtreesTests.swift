@testable import CertPath
import CertPathDER
import Testing

/// `PreparedSubtrees` compares names with subtree bases on lowered bytes through pointers (the
/// name-constraint hot loop); `NameConstraintMatching.match` states the rules on slices. Every
/// pair of presented name and base below, across the forms and their edge cases (case, trailing
/// dots, wildcards, one label above, mailbox local parts, URI leading dots, IP families and masks,
/// directoryName prefixes, SmtpUTF8Mailbox domains), in both modes, must give the same outcome.
@Suite("Prepared subtrees: the same outcome as the rules on slices")
struct PreparedSubtreesTests {
    static func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }

    static let bases: [GeneralName] = [
        .dNSName([]), .dNSName(bytes("example.com")), .dNSName(bytes("EXAMPLE.com.")), .dNSName(bytes("a.example.com")),
        .dNSName(bytes("bar.example.com")), .dNSName(bytes("com")), .dNSName(bytes("xample.com")),
        .rfc822Name([]), .rfc822Name(bytes("Joe@Example.com")), .rfc822Name(bytes("joe@example.com")),
        .rfc822Name(bytes("example.com")), .rfc822Name(bytes(".example.com")), .rfc822Name(bytes(".EXAMPLE.COM")),
        .uniformResourceIdentifier([]), .uniformResourceIdentifier(bytes("host.example.com")),
        .uniformResourceIdentifier(bytes(".example.com")), .uniformResourceIdentifier(bytes("Example.COM.")),
        .iPAddress([192, 0, 2, 0, 255, 255, 255, 0][...]), .iPAddress([10, 0, 0, 0, 255, 0, 0, 0][...]),
        .iPAddress([0, 0, 0, 0, 0, 0, 0, 0][...]),
        .iPAddress(([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12) + [UInt8](repeating: 0xFF, count: 4)
            + [UInt8](repeating: 0, count: 12))[...]),
        .directoryName(Self.name("Example Org")), .directoryName(Self.name("Other Org")),
        .dNSName(bytes("bad..constraint")),
    ]

    static let presented: [GeneralName] = [
        .dNSName(bytes("example.com")), .dNSName(bytes("Example.COM.")), .dNSName(bytes("www.example.com")),
        .dNSName(bytes("badexample.com")), .dNSName(bytes("*.example.com")), .dNSName(bytes("*.EXAMPLE.com")),
        .dNSName(bytes("*.com")), .dNSName(bytes("*.a.example.com")), .dNSName(bytes("b.a.example.com")), .dNSName(bytes("com")),
        .rfc822Name(bytes("joe@example.com")), .rfc822Name(bytes("Joe@example.com")), .rfc822Name(bytes("joe@EXAMPLE.com")),
        .rfc822Name(bytes("ann@mail.example.com")), .rfc822Name(bytes("ann@xample.com")),
        .uniformResourceIdentifier(bytes("https://host.example.com/path")), .uniformResourceIdentifier(bytes("https://HOST.Example.com:8443")),
        .uniformResourceIdentifier(bytes("https://example.com")), .uniformResourceIdentifier(bytes("https://a.b.example.com/")),
        .iPAddress([192, 0, 2, 7][...]), .iPAddress([192, 0, 3, 7][...]), .iPAddress([10, 9, 8, 7][...]),
        .iPAddress(([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1])[...]),
        .iPAddress(([0x20, 0x01, 0x0D, 0xB9] + [UInt8](repeating: 0, count: 12))[...]),
        .directoryName(Self.name("Example Org", unit: "Unit")), .directoryName(Self.name("Other Org")),
        Self.smtp("用户@example.com"), Self.smtp("用户@EXAMPLE.com"), Self.smtp("用户@mail.example.com"), Self.smtp("用户@xample.com"),
    ]

    /// An SmtpUTF8Mailbox otherName (RFC 9598), held to rfc822Name subtrees.
    static func smtp(_ text: String) -> GeneralName {
        .otherName(typeID: KnownOID.smtpUTF8Mailbox, value: ([0x0C, UInt8(text.utf8.count)] + Array(text.utf8))[...])
    }

    /// O=`organization` (UTF8String), optionally followed by OU=`unit`.
    static func name(_ organization: String, unit: String? = nil) -> Name {
        var rdns = [D.seq(D.oid("2.5.4.10"), D.tlv(.utf8String, Array(organization.utf8)))]
        if let unit { rdns.append(D.seq(D.oid("2.5.4.11"), D.tlv(.utf8String, Array(unit.utf8)))) }
        let der = D.tlv(.sequence, rdns.flatMap { D.tlv(.set, $0) })
        return try! Name(derEncoded: der)
    }

    @Test("every presented name against every base, both modes")
    func sameOutcomes() throws {
        var compared = 0
        for base in Self.bases {
            let prepared = PreparedSubtrees([GeneralSubtree(base: base)])
            for name in Self.presented {
                guard case .success(let constrained) = ConstrainedName.prepare(name) else {
                    Issue.record("\(name) should prepare")
                    continue
                }
                let form = NameConstraintForm(constraining: name)
                for mode in [NameConstraintMatching.Mode.permitted, .excluded] {
                    var budget = 10
                    let scan = prepared.scan(PresentedName(constrained), constrained, form: form, mode, &budget)
                    let expected = NameConstraintForm(base) == form ? NameConstraintMatching.match(constrained, base, mode) : .noMatch
                    switch (scan, expected) {
                    case (.match(0), .match), (.noMatch, .noMatch), (.malformedConstraint(0), .malformedConstraint):
                        compared += 1
                    default:
                        Issue.record("\(name) against \(base), \(mode): prepared \(scan), rules \(expected)")
                    }
                }
            }
        }
        #expect(compared == Self.bases.count * Self.presented.count * 2)
    }

    @Test("the first covering subtree is reported, and each visited pair costs one unit")
    func orderAndBudget() throws {
        let subtrees = [GeneralName.dNSName(Self.bytes("other.test")), .iPAddress([10, 0, 0, 0, 255, 0, 0, 0][...]),
                        .dNSName(Self.bytes("example.com")), .dNSName(Self.bytes("www.example.com"))].map { GeneralSubtree(base: $0) }
        let prepared = PreparedSubtrees(subtrees)
        guard case .success(let name) = ConstrainedName.prepare(.dNSName(Self.bytes("www.example.com"))) else {
            Issue.record("prepare")
            return
        }
        var budget = 10
        let scan = prepared.scan(PresentedName(name), name, form: .dNSName, .permitted, &budget)
        guard case .match(2) = scan else {
            Issue.record("expected the third subtree, got \(scan)")
            return
        }
        #expect(budget == 7)
        var short = 2
        guard case .budgetExhausted = prepared.scan(PresentedName(name), name, form: .dNSName, .permitted, &short) else {
            Issue.record("expected budgetExhausted")
            return
        }
        #expect(short == 0)
    }
}
