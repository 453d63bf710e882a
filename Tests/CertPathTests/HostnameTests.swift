import Foundation
import Testing

@_spi(Fuzzing) @testable import CertPath

/// RFC 6125 server identity matching: reference identifier parsing, DNS-ID / IP-ID matching of
/// presented subjectAltName values, public-suffix refusal of wildcards, and email matching.
@Suite("Hostname matching")
struct HostnameTests {
    // MARK: Table

    enum Presented: Sendable, CustomStringConvertible {
        /// dNSName contents octets.
        case dns([UInt8])
        /// iPAddress contents octets.
        case ip([UInt8])

        var description: String {
            switch self {
            case .dns(let bytes): return "dNSName " + String(reflecting: String(decoding: bytes, as: UTF8.self))
            case .ip(let bytes): return "iPAddress \(bytes)"
            }
        }
    }

    enum Expected: Sendable, Equatable {
        case match
        case noMatch
        case referenceError(ReferenceIdentifierError)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let presented: Presented
        let reference: String
        let expected: Expected
        let reason: String
        let usePublicSuffixList: Bool

        var testDescription: String {
            "\(presented) vs \(String(reflecting: reference)) -> \(expected): \(reason)"
        }
    }

    static func dns(_ text: String) -> Presented { .dns(Array(text.utf8)) }
    static func dnsBytes(_ bytes: [UInt8]) -> Presented { .dns(bytes) }
    static func ip(_ bytes: [UInt8]) -> Presented { .ip(bytes) }

    static func c(
        _ presented: Presented, _ reference: String, _ expected: Expected, _ reason: String, psl: Bool = false
    ) -> Case {
        Case(presented: presented, reference: reference, expected: expected, reason: reason, usePublicSuffixList: psl)
    }

    static let mapped192: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 1]
    static let v6Loopback: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    static let doc1: [UInt8] = [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]

    /// 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 octets: the longest valid name.
    static let name253 =
        String(repeating: "a", count: 63) + "." + String(repeating: "b", count: 63) + "."
        + String(repeating: "c", count: 63) + "." + String(repeating: "d", count: 61)
    static let name254 = name253 + "d"
    static let label63 = String(repeating: "x", count: 63)
    static let label64 = String(repeating: "x", count: 64)
    /// `q.` + the last 251 octets of `name253`: a 253-octet name whose wildcard pattern
    /// (`*.` + the same 251 octets) is 253 octets too.
    static let wide253 = "q." + String(name253.dropFirst(2))

    static let cases: [Case] = [
        // Exact names and case.
        c(dns("example.test"), "example.test", .match, "identical names"),
        c(dns("EXAMPLE.TEST"), "example.test", .match, "presented letters compare case-insensitively"),
        c(dns("example.test"), "ExAmPlE.TeSt", .match, "the reference is lowercased"),
        c(dns("www.example.test"), "example.test", .noMatch, "an extra presented label"),
        c(dns("example.test"), "www.example.test", .noMatch, "an extra reference label"),
        c(dns("example.test"), "example.tes", .noMatch, "a presented name longer than the reference"),
        c(dns("xample.test"), "example.test", .noMatch, "a presented name that is a suffix of the reference"),
        c(dns("example.test.evil"), "example.test", .noMatch, "the reference is only a prefix"),
        c(dns("localhost"), "localhost", .match, "single-label names compare like any other"),
        c(dns("123.example.test"), "123.example.test", .match, "a numeric label is fine when it is not the last"),
        c(dns("a-b.example.test"), "a-b.example.test", .match, "inner hyphens are fine"),

        // Trailing dots.
        c(dns("example.test."), "example.test", .match, "one trailing dot on the presented name is ignored"),
        c(dns("example.test"), "example.test.", .match, "the reference's trailing dot is removed"),
        c(dns("example.test."), "example.test.", .match, "both absolute"),
        c(dns("example.test.."), "example.test", .noMatch, "two trailing dots make an empty label"),
        c(dns("example.test"), "example.test..", .referenceError(.emptyLabel(offset: 13)), "only one trailing dot may be removed"),
        c(dns("."), ".", .referenceError(.empty), "the root alone is no host name"),
        c(dns("*.example.test."), "a.example.test", .match, "an absolute wildcard pattern"),

        // Empty labels.
        c(dns("a..example.test"), "a..example.test", .referenceError(.emptyLabel(offset: 2)), "two dots in a row in the reference"),
        c(dns("a..example.test"), "a.example.test", .noMatch, "a presented name with an empty label is invalid"),
        c(dns(".example.test"), "example.test", .noMatch, "a presented leading dot is an empty label"),
        c(dns("example.test"), ".example.test", .referenceError(.emptyLabel(offset: 0)), "a leading dot in the reference"),
        c(dns(""), "example.test", .noMatch, "an empty presented name"),
        c(dns(""), "", .referenceError(.empty), "an empty reference"),

        // Wildcards.
        c(dns("*.example.test"), "a.example.test", .match, "a wildcard covers one left-most label"),
        c(dns("*.example.test"), "A.EXAMPLE.TEST", .match, "wildcard matching ignores case (reference)"),
        c(dns("*.EXAMPLE.test"), "a.example.test", .match, "wildcard matching ignores case (presented)"),
        c(dns("*.example.test"), "example.test", .noMatch, "a wildcard never matches an empty label"),
        c(dns("*.example.test"), "a.b.example.test", .noMatch, "a wildcard covers exactly one label"),
        c(dns("*.example.test"), "aexample.test", .noMatch, "the wildcard must end at a dot"),
        c(dns("*.example.test"), "a.example.testx", .noMatch, "the remainder must match entirely"),
        c(dns("*.example.test"), "a-b.example.test", .match, "a hyphenated label is covered"),
        c(dns("f*.example.test"), "foo.example.test", .noMatch, "partial-label wildcard (prefix) never matches"),
        c(dns("*oo.example.test"), "foo.example.test", .noMatch, "partial-label wildcard (suffix) never matches"),
        c(dns("f*o.example.test"), "foo.example.test", .noMatch, "partial-label wildcard (inner) never matches"),
        c(dns("*example.test"), "aexample.test", .noMatch, "a wildcard glued to the next label never matches"),
        c(dns("xn--*.example.test"), "xn--bcher-kva.example.test", .noMatch, "a wildcard inside an A-label never matches"),
        c(dns("a.*.example.test"), "a.b.example.test", .noMatch, "a wildcard that is not left-most never matches"),
        c(dns("*.*.example.test"), "a.b.example.test", .noMatch, "nested wildcards never match"),
        c(dns("**.example.test"), "a.example.test", .noMatch, "a double star is not a wildcard label"),
        c(dns("*.test"), "example.test", .noMatch, "a wildcard needs two labels after it"),
        c(dns("*"), "example", .noMatch, "a bare wildcard never matches"),
        c(dns("*"), "example.test", .noMatch, "a bare wildcard never matches a longer name"),
        c(dns("*."), "example", .noMatch, "a bare absolute wildcard never matches"),
        c(dns("*.example.test"), "xn--bcher-kva.example.test", .match, "a wildcard may cover a whole A-label (as in Go, webpki)"),
        c(dns("*.xn--bcher-kva.test"), "www.xn--bcher-kva.test", .match, "an A-label in the remainder"),
        c(dns("*.0.2.1"), "192.0.2.1", .noMatch, "a wildcard dNSName never matches an IP reference"),
        c(dns("*.example.test"), "*.example.test", .referenceError(.wildcard(offset: 0)), "a reference cannot be a pattern"),
        c(dns("a.b.test"), "a.*.test", .referenceError(.wildcard(offset: 2)), "a star anywhere in a reference is refused"),

        // IDNA.
        c(dns("xn--bcher-kva.example"), "bücher.example", .referenceError(.internationalizedNameNeedsALabel), "U-labels must be converted by the caller"),
        c(dns("xn--bcher-kva.example"), "BÜCHER.example", .referenceError(.internationalizedNameNeedsALabel), "uppercase U-label"),
        c(dns("example.test"), "example。test", .referenceError(.internationalizedNameNeedsALabel), "an ideographic full stop is not ASCII"),
        c(dns("xn--bcher-kva.example"), "xn--bcher-kva.example", .match, "A-labels compare as ASCII"),
        c(dns("XN--BCHER-KVA.EXAMPLE"), "xn--bcher-kva.example", .match, "an uppercase XN-- presented A-label"),
        c(dns("xn--bcher-kva.example"), "XN--bcher-KVA.example", .match, "an uppercase XN-- reference A-label"),
        c(dns("xn--bcher-kva.example"), "xn--bchr-kva.example", .noMatch, "different A-labels"),
        c(dns("bücher.example"), "xn--bcher-kva.example", .noMatch, "a presented U-label (raw UTF-8) is invalid"),

        // IP addresses.
        c(ip([192, 0, 2, 1]), "192.0.2.1", .match, "IPv4 octet equality"),
        c(ip([192, 0, 2, 2]), "192.0.2.1", .noMatch, "a different IPv4 address"),
        c(ip(v6Loopback), "::1", .match, "compressed IPv6 reference"),
        c(ip(v6Loopback), "0:0:0:0:0:0:0:1", .match, "full IPv6 reference"),
        c(ip(doc1), "2001:DB8::1", .match, "uppercase IPv6 reference"),
        c(ip(doc1), "2001:0db8:0000::0001", .match, "IPv6 reference with leading zeros"),
        c(ip(mapped192), "192.0.2.1", .noMatch, "an IPv4 reference does not match an IPv4-mapped IPv6 SAN"),
        c(ip([192, 0, 2, 1]), "::ffff:192.0.2.1", .noMatch, "an IPv4-mapped reference does not match an IPv4 SAN"),
        c(ip(mapped192), "::ffff:192.0.2.1", .match, "embedded IPv4 notation in an IPv6 reference"),
        c(ip(mapped192), "::ffff:c000:201", .match, "the same mapped address in hex"),
        c(ip([192, 0, 2, 1, 255, 255, 255, 255]), "192.0.2.1", .noMatch, "an 8-octet (constraint) value is not an address"),
        c(ip([192, 0, 2, 1, 0]), "192.0.2.1", .noMatch, "a 5-octet value is malformed"),
        c(ip([]), "192.0.2.1", .noMatch, "an empty value is malformed"),
        c(ip(v6Loopback), "fe80::1%eth0", .referenceError(.invalidIPv6Address), "zone identifiers are refused"),
        c(ip(v6Loopback), "[::1]", .referenceError(.invalidIPv6Address), "brackets belong to URLs, not addresses"),
        c(ip(v6Loopback), "1::2::3", .referenceError(.invalidIPv6Address), "two :: are ambiguous"),
        c(ip(v6Loopback), "12345::1", .referenceError(.invalidIPv6Address), "a five-digit group"),
        c(ip(v6Loopback), "1:2:3:4:5:6:7", .referenceError(.invalidIPv6Address), "too few groups"),
        c(ip([10, 0, 0, 1]), "010.0.0.1", .referenceError(.invalidIPv4Address), "a leading zero (octal to inet_aton)"),
        c(ip([1, 2, 0, 3]), "1.2.3", .referenceError(.invalidIPv4Address), "IPv4 shorthand"),
        c(ip([127, 0, 0, 1]), "0x7f.0.0.1", .referenceError(.invalidIPv4Address), "a hex octet"),
        c(ip([127, 0, 0, 1]), "0x7f.1", .referenceError(.invalidIPv4Address), "hex shorthand"),
        c(ip([127, 0, 0, 1]), "127.1", .referenceError(.invalidIPv4Address), "inet_aton shorthand"),
        c(ip([1, 2, 3, 4]), "1.2.3.4.", .referenceError(.invalidIPv4Address), "an IP reference with a trailing dot"),
        c(ip([1, 2, 3, 4]), "1.2.3.4.5", .referenceError(.invalidIPv4Address), "five numeric labels"),
        c(dns("example.123"), "example.123", .referenceError(.invalidIPv4Address), "a numeric top-level label"),
        c(dns("example.0x1"), "example.0x1", .referenceError(.invalidIPv4Address), "a hex top-level label"),
        c(dns("192.0.2.1"), "192.0.2.1", .noMatch, "an IP reference never matches a dNSName spelling it"),
        c(ip([192, 0, 2, 1]), "example.test", .noMatch, "a DNS reference never matches an iPAddress"),
        c(dns("example.test"), "example.test:443", .referenceError(.invalidIPv6Address), "a port is not part of a host"),

        // NUL and control characters.
        c(dnsBytes(Array("example.test".utf8) + [0] + Array(".evil.test".utf8)), "example.test", .noMatch, "an embedded NUL (the classic truncation attack)"),
        c(dnsBytes(Array("example.test".utf8) + [0]), "example.test", .noMatch, "a trailing NUL"),
        c(dnsBytes([0] + Array("example.test".utf8)), "example.test", .noMatch, "a leading NUL"),
        c(dnsBytes(Array("*.example.test".utf8) + [0]), "a.example.test", .noMatch, "a wildcard with a NUL"),
        c(dnsBytes(Array("exa\tmple.test".utf8)), "example.test", .noMatch, "a presented tab"),
        c(dns("example.test"), "example.test\u{0}", .referenceError(.controlCharacter(offset: 12)), "a NUL in the reference"),
        c(dns("example.test"), "exa\tmple.test", .referenceError(.controlCharacter(offset: 3)), "a tab in the reference"),
        c(dns("example.test"), "exa mple.test", .referenceError(.invalidCharacter(offset: 3)), "a space in the reference"),
        c(dns("example.test"), "example.test/", .referenceError(.invalidCharacter(offset: 12)), "a slash in the reference"),
        c(dnsBytes(Array("example.test".utf8) + [0x7F]), "example.test", .noMatch, "a presented DEL"),

        // Lengths.
        c(dns(name253), name253, .match, "a 253-octet name is the longest allowed"),
        c(dns(name253 + "."), name253 + ".", .match, "253 octets plus a trailing dot on both sides"),
        c(dns(name254), name254, .referenceError(.nameTooLong(length: 254)), "a 254-octet reference"),
        c(dns(name254), name253, .noMatch, "a 254-octet presented name never matches (see presentedSyntax)"),
        c(dns(label63 + ".test"), label63 + ".test", .match, "a 63-octet label is the longest allowed"),
        c(dns(label64 + ".test"), label64 + ".test", .referenceError(.labelTooLong(offset: 0)), "a 64-octet label in the reference"),
        c(dns("*." + label64 + ".test"), "a." + label64 + ".test", .referenceError(.labelTooLong(offset: 2)), "a 64-octet label after a wildcard"),
        c(dns("*." + String(wide253.dropFirst(2))), wide253, .match, "a 253-octet wildcard pattern covering a 253-octet name"),

        // Underscores and hyphens.
        c(dns("_acme.example.test"), "_acme.example.test", .referenceError(.underscore(offset: 0)), "a leading underscore in the reference"),
        c(dns("a_b.example.test"), "a_b.example.test", .referenceError(.underscore(offset: 1)), "an inner underscore in the reference"),
        c(dns("a_b.example.test"), "ab.example.test", .noMatch, "a presented underscore name is invalid"),
        c(dns("-a.example.test"), "-a.example.test", .referenceError(.hyphenAtLabelEdge(offset: 0)), "a label starting with a hyphen"),
        c(dns("a-.example.test"), "a-.example.test", .referenceError(.hyphenAtLabelEdge(offset: 1)), "a label ending with a hyphen"),
        c(dns("example.test-"), "example.test-", .referenceError(.hyphenAtLabelEdge(offset: 12)), "a last label ending with a hyphen"),

        // Public suffixes (with `inlineList`).
        c(dns("*.co.uk"), "example.co.uk", .noMatch, "co.uk is a public suffix (ICANN section)", psl: true),
        c(dns("*.CO.UK"), "example.co.uk", .noMatch, "the public-suffix lookup ignores case", psl: true),
        c(dns("*.co.uk."), "example.co.uk", .noMatch, "the public-suffix lookup ignores a trailing dot", psl: true),
        c(dns("*.co.uk"), "example.co.uk", .match, "without a list the check is off"),
        c(dns("*.example.co.uk"), "www.example.co.uk", .match, "example.co.uk is a registrable domain", psl: true),
        c(dns("*.s3.amazonaws.com"), "bucket.s3.amazonaws.com", .noMatch, "PRIVATE-section suffixes count too", psl: true),
        c(dns("*.s3.amazonaws.com"), "bucket.s3.amazonaws.com", .match, "no list, no PRIVATE-section check"),
        c(dns("*.foo.ck"), "a.foo.ck", .noMatch, "foo.ck is a public suffix through the wildcard rule *.ck", psl: true),
        c(dns("*.www.ck"), "a.www.ck", .match, "the exception !www.ck makes www.ck registrable", psl: true),
        c(dns("*.example.test"), "a.example.test", .match, "example.test is not a suffix even though test is", psl: true),
        c(dns("*.unlisted.zz"), "a.unlisted.zz", .match, "an unlisted TLD is a suffix only by itself (implicit * rule)", psl: true),
        c(dns("*.xn--55qx5d.cn"), "a.xn--55qx5d.cn", .noMatch, "a Unicode rule (公司.cn) is compared in A-label form", psl: true),
        c(dns("example.co.uk"), "example.co.uk", .match, "the list only restricts wildcards", psl: true),
    ]

    /// A small list in the public_suffix_list.dat format, with both sections, read with both.
    static let inlineList = PublicSuffixList(
        text: """
            // ===BEGIN ICANN DOMAINS===
            com
            uk
            co.uk
            test
            cn
            公司.cn
            // ck : https://www.iana.org/domains/root/db/ck.html
            *.ck
            !www.ck
            // ===END ICANN DOMAINS===
            // ===BEGIN PRIVATE DOMAINS===
            // Amazon
            s3.amazonaws.com
            // ===END PRIVATE DOMAINS===
            """, sections: .all)

    @Test("hostname and address matching table", arguments: cases)
    func table(_ testCase: Case) {
        let reference: ReferenceIdentifier
        do {
            reference = try ReferenceIdentifier(testCase.reference)
        } catch {
            #expect(testCase.expected == .referenceError(error), "reference refused: \(error)")
            return
        }
        let options = PresentedIdentifierMatching.Options(
            publicSuffixList: testCase.usePublicSuffixList ? Self.inlineList : nil)
        let matched: Bool
        switch testCase.presented {
        case .dns(let bytes):
            matched = PresentedIdentifierMatching.matches(
                presentedDNSName: bytes[...], reference: reference, options: options)
        case .ip(let bytes):
            matched = PresentedIdentifierMatching.matches(presentedIPAddress: bytes[...], reference: reference)
        }
        #expect(testCase.expected == (matched ? .match : .noMatch))
    }

    @Test("the table is large and exercises every outcome")
    func tableCoverage() {
        #expect(Self.cases.count >= 80)
        #expect(Self.cases.contains { $0.expected == .match })
        #expect(Self.cases.contains { $0.expected == .noMatch })
        #expect(Self.cases.contains { if case .referenceError = $0.expected { true } else { false } })
        #expect(Self.cases.allSatisfy { !$0.reason.isEmpty })
        // Fixtures are what their names claim.
        #expect(Self.name253.utf8.count == 253)
        #expect(Self.wide253.utf8.count == 253)
    }

    // MARK: Matching on slices of a larger buffer

    @Test("matching works on a slice in the middle of a certificate buffer")
    func slicesOfLargerBuffer() throws {
        let buffer: [UInt8] = [0x30, 0x82] + Array("*.example.test".utf8) + [0x87, 0x04, 192, 0, 2, 1, 0xFF]
        let dnsSlice = buffer[2..<16]
        let ipSlice = buffer[18..<22]
        let name = try DNSName("www.example.test")
        #expect(PresentedIdentifierMatching.matches(presentedDNSName: dnsSlice, reference: name))
        let address = try #require(IPAddress("192.0.2.1"))
        #expect(PresentedIdentifierMatching.matches(presentedIPAddress: ipSlice, reference: address))
        #expect(!PresentedIdentifierMatching.matches(presentedIPAddress: buffer[17..<21], reference: address))
    }

    // MARK: Reference identifiers

    @Test("DNSName normalizes case and the trailing dot")
    func dnsNameNormalization() throws {
        let name = try DNSName("WWW.Example.TEST.")
        #expect(name.bytes == Array("www.example.test".utf8))
        #expect(name.description == "www.example.test")
        #expect(name.labelCount == 3)
        #expect(try DNSName("localhost").labelCount == 1)
        #expect(name == (try DNSName("www.example.test")))
    }

    @Test("ReferenceIdentifier classifies text as IP-ID or DNS-ID")
    func classification() throws {
        #expect(try ReferenceIdentifier("192.0.2.1") == .ipAddress(#require(IPAddress("192.0.2.1"))))
        #expect(try ReferenceIdentifier("::1") == .ipAddress(#require(IPAddress("::1"))))
        #expect(try ReferenceIdentifier("Example.Test") == .dnsName(DNSName("example.test")))
        #expect(try ReferenceIdentifier("2001:DB8::1").description == "2001:db8::1")
        #expect(throws: ReferenceIdentifierError.isIPAddress) { try DNSName("192.0.2.1") }
    }

    @Test("every reference error has its own message")
    func errorMessages() {
        let errors: [ReferenceIdentifierError] = [
            .empty, .nameTooLong(length: 254), .emptyLabel(offset: 1), .labelTooLong(offset: 0),
            .hyphenAtLabelEdge(offset: 0), .underscore(offset: 0), .wildcard(offset: 0),
            .controlCharacter(offset: 0), .invalidCharacter(offset: 0), .internationalizedNameNeedsALabel,
            .isIPAddress, .invalidIPv4Address, .invalidIPv6Address, .missingAtSign,
            .invalidLocalPart(offset: 0), .localPartTooLong(length: 65),
        ]
        let messages = errors.map(\.description)
        #expect(Set(messages).count == errors.count)
        #expect(ReferenceIdentifierError.internationalizedNameNeedsALabel.description.contains("xn--"))
        #expect(ReferenceIdentifierError.nameTooLong(length: 254).description.contains("254"))
    }

    // MARK: Presented-name syntax

    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        let name: [UInt8]
        let error: ReferenceIdentifierError?
        let reason: String
        var testDescription: String { "\(String(reflecting: String(decoding: name, as: UTF8.self))): \(reason)" }
    }

    static let syntaxCases: [SyntaxCase] = [
        SyntaxCase(name: Array("*.example.test".utf8), error: nil, reason: "whole left-most wildcard"),
        SyntaxCase(name: Array("*".utf8), error: nil, reason: "a lone star is well-formed (matching refuses it)"),
        SyntaxCase(name: Array("a*.example.test".utf8), error: .wildcard(offset: 1), reason: "partial wildcard"),
        SyntaxCase(name: Array("a.*.test".utf8), error: .wildcard(offset: 2), reason: "inner wildcard"),
        SyntaxCase(name: Array((label64 + ".test").utf8), error: .labelTooLong(offset: 0), reason: "64-octet label"),
        SyntaxCase(name: Array(("a." + label64).utf8), error: .labelTooLong(offset: 2), reason: "64-octet last label"),
        SyntaxCase(name: Array((label63 + ".test").utf8), error: nil, reason: "63-octet label"),
        SyntaxCase(name: Array(name254.utf8), error: .nameTooLong(length: 254), reason: "254 octets"),
        SyntaxCase(name: Array("a_b.test".utf8), error: .underscore(offset: 1), reason: "underscore"),
        SyntaxCase(name: Array("a.test.".utf8), error: .emptyLabel(offset: 7), reason: "a trailing dot is an empty label here"),
        SyntaxCase(name: [0x61, 0x00, 0x62], error: .controlCharacter(offset: 1), reason: "NUL"),
        SyntaxCase(name: [0x61, 0xC3, 0xA9], error: .internationalizedNameNeedsALabel, reason: "non-ASCII"),
        SyntaxCase(name: Array("a@b.test".utf8), error: .invalidCharacter(offset: 1), reason: "at sign"),
    ]

    @Test("presented-name syntax check", arguments: syntaxCases)
    func presentedSyntax(_ testCase: SyntaxCase) {
        #expect(DNSNameSyntax.check(testCase.name[...], allowWildcard: true) == testCase.error)
    }

    // MARK: Public Suffix List

    @Test("the inline list parses every rule and answers lookups")
    func inlineListLookups() throws {
        let list = Self.inlineList
        #expect(list.ruleCount == 9)
        #expect(list.skippedLineCount == 0)
        let suffixes = ["com", "co.uk", "uk", "foo.ck", "s3.amazonaws.com", "xn--55qx5d.cn", "zz", "CO.UK"]
        for text in suffixes {
            #expect(list.isPublicSuffix(dottedName: Array(text.utf8)[...]), "\(text)")
        }
        let registrable = ["example.com", "example.co.uk", "www.ck", "a.foo.ck", "amazonaws.com", "unlisted.zz", "a.xn--55qx5d.cn"]
        for text in registrable {
            #expect(!list.isPublicSuffix(dottedName: Array(text.utf8)[...]), "\(text)")
        }
        #expect(list.isPublicSuffix(try DNSName("co.uk")))
        #expect(!list.isPublicSuffix(dottedName: Array("a..uk".utf8)[...]))
        #expect(!list.isPublicSuffix(dottedName: []))
    }

    @Test("invalid list lines are skipped and counted")
    func invalidLines() {
        let list = PublicSuffixList(
            text: "com\r\nfoo.*.bar\n*\n!com\nbad_label.test\na..b\n  \t\nok.test extra words\n!*.x\n")
        #expect(list.ruleCount == 2)  // "com" and "ok.test"
        #expect(list.skippedLineCount == 6)
        #expect(list.isPublicSuffix(dottedName: Array("ok.test".utf8)[...]))
        #expect(!list.isPublicSuffix(dottedName: Array("bar.test".utf8)[...]))
    }

    @Test("exception rules under wildcard rules (kawasaki.jp pattern)")
    func exceptionRules() {
        let list = PublicSuffixList(text: "jp\n*.kawasaki.jp\n!city.kawasaki.jp\n")
        #expect(list.isPublicSuffix(dottedName: Array("foo.kawasaki.jp".utf8)[...]))
        #expect(!list.isPublicSuffix(dottedName: Array("city.kawasaki.jp".utf8)[...]))
        #expect(!list.isPublicSuffix(dottedName: Array("a.city.kawasaki.jp".utf8)[...]))
        #expect(!list.isPublicSuffix(dottedName: Array("kawasaki.jp".utf8)[...]))
    }

    @Test("Punycode encodes the list's Unicode labels (RFC 3492)")
    func punycode() {
        let vectors: [(String, String)] = [
            ("bücher", "bcher-kva"), ("münchen", "mnchen-3ya"), ("公司", "55qx5d"),
            ("中国", "fiqs8s"), ("рф", "p1ai"),
        ]
        for (unicode, expected) in vectors {
            let encoded = Punycode.encode(Array(unicode.unicodeScalars)).map { String(decoding: $0, as: UTF8.self) }
            #expect(encoded == expected, "\(unicode)")
        }
        #expect(PublicSuffixList.aLabel("公司") == Array("xn--55qx5d".utf8))
        #expect(PublicSuffixList.aLabel("Co") == Array("co".utf8))
    }

    @Test("list text: a byte order mark, CRLF and comments after a rule are not part of rules; over-long rules are skipped")
    func listText() throws {
        let long = (0..<300).map { _ in "a" }.joined(separator: ".")  // 599 bytes, 300 labels: invalid
        let huge = String(repeating: "b", count: 2_000)               // longer than any rule can be
        let list = PublicSuffixList(text: "\u{FEFF}one.test\r\n// comment\r\ntwo.test extra words\n\n\(long)\n\(huge)\n*.three.test\n")
        #expect(list.ruleCount == 3)
        #expect(list.skippedLineCount == 2)
        for name in ["one.test", "two.test", "x.three.test"] {
            #expect(list.isPublicSuffix(try DNSName(name)), "\(name)")
        }
        #expect(!list.isPublicSuffix(try DNSName("a.one.test")))
        // Many rules under one parent (built with a hash map, sorted once): every one is found.
        let many = PublicSuffixList(text: (0..<5_000).map { "r\($0).test" }.joined(separator: "\n"))
        #expect(many.ruleCount == 5_000)
        #expect(try (0..<5_000).allSatisfy { many.isPublicSuffix(try DNSName("r\($0).test")) })
        #expect(!many.isPublicSuffix(try DNSName("r5000.test")))
    }

    @Test("sections: rules between the PRIVATE markers are used only with .private")
    func sections() throws {
        let text = "early.test\n// ===BEGIN ICANN DOMAINS===\ncom\n// ===END ICANN DOMAINS===\n"
            + "// ===BEGIN PRIVATE DOMAINS===\n// Example Inc.\nprivate.test\n// ===END PRIVATE DOMAINS===\nlate.test\n"
        let icann = PublicSuffixList(text: text)
        let all = PublicSuffixList(text: text, sections: .all)
        let onlyPrivate = PublicSuffixList(text: text, sections: .private)
        #expect(icann.ruleCount == 3 && all.ruleCount == 4 && onlyPrivate.ruleCount == 1)
        let privateName = try DNSName("private.test"), early = try DNSName("early.test"), late = try DNSName("late.test")
        #expect(!icann.isPublicSuffix(privateName) && all.isPublicSuffix(privateName))
        #expect(icann.isPublicSuffix(early) && icann.isPublicSuffix(late))
        #expect(onlyPrivate.isPublicSuffix(privateName) && !onlyPrivate.isPublicSuffix(early))
    }

    static let systemListPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    @Test(
        "the system public_suffix_list.dat loads and refuses registry wildcards",
        .enabled(if: FileManager.default.fileExists(atPath: systemListPath)))
    func systemList() throws {
        let text = try String(contentsOfFile: Self.systemListPath, encoding: .utf8)
        let list = PublicSuffixList(text: text)
        let all = PublicSuffixList(text: text, sections: .all)
        #expect(list.ruleCount > 5000 && all.ruleCount > list.ruleCount)
        #expect(list.skippedLineCount == 0 && all.skippedLineCount == 0)
        let options = PresentedIdentifierMatching.Options(publicSuffixList: list)
        let pedantic = PresentedIdentifierMatching.Options(publicSuffixList: all)
        let refused = [("*.co.uk", "example.co.uk"), ("*.com", "example.com"), ("*.xn--55qx5d.cn", "a.xn--55qx5d.cn")]
        for (pattern, host) in refused {
            for options in [options, pedantic] {
                #expect(!PresentedIdentifierMatching.matches(
                    presentedDNSName: Array(pattern.utf8)[...], reference: try DNSName(host), options: options), "\(pattern)")
            }
        }
        // The PRIVATE section (review finding: GitHub Pages' and S3's real certificates): used only
        // with `.all`, as x509-limbo's pedantic reading; Chromium and the default leave it out.
        for (pattern, host) in [("*.s3.amazonaws.com", "bucket.s3.amazonaws.com"), ("*.github.io", "user.github.io")] {
            #expect(PresentedIdentifierMatching.matches(
                presentedDNSName: Array(pattern.utf8)[...], reference: try DNSName(host), options: options), "\(pattern)")
            #expect(!PresentedIdentifierMatching.matches(
                presentedDNSName: Array(pattern.utf8)[...], reference: try DNSName(host), options: pedantic), "\(pattern)")
        }
        #expect(PresentedIdentifierMatching.matches(
            presentedDNSName: Array("*.example.co.uk".utf8)[...], reference: try DNSName("www.example.co.uk"),
            options: options))
        #expect(!list.isPublicSuffix(try DNSName("city.kawasaki.jp")))
        #expect(list.isPublicSuffix(try DNSName("foo.kawasaki.jp")))
    }

    // MARK: Email

    struct EmailCase: Sendable, CustomTestStringConvertible {
        let presented: [UInt8]
        let reference: String
        let expected: Expected
        let reason: String
        var testDescription: String {
            "\(String(reflecting: String(decoding: presented, as: UTF8.self))) vs \(reference): \(reason)"
        }
    }

    static func e(_ presented: String, _ reference: String, _ expected: Expected, _ reason: String) -> EmailCase {
        EmailCase(presented: Array(presented.utf8), reference: reference, expected: expected, reason: reason)
    }

    static let emailCases: [EmailCase] = [
        e("alice@example.test", "alice@example.test", .match, "identical"),
        e("alice@EXAMPLE.TEST", "alice@example.test", .match, "domain case-insensitive"),
        e("alice@example.test", "alice@Example.Test", .match, "reference domain lowercased"),
        e("Alice@example.test", "alice@example.test", .noMatch, "local part case-sensitive"),
        e("alice.smith+tag@example.test", "alice.smith+tag@example.test", .match, "dot-atom with +"),
        e("alice@example.test", "bob@example.test", .noMatch, "different local part"),
        e("alice@example.test", "alice@example.org", .noMatch, "different domain"),
        e("alice@mail.example.test", "alice@example.test", .noMatch, "subdomain is not the domain"),
        e("alice@example.test.", "alice@example.test", .noMatch, "presented trailing dot refused"),
        e("\"alice\"@example.test", "alice@example.test", .noMatch, "quoted local part refused"),
        e("alice@@example.test", "alice@example.test", .noMatch, "two at signs"),
        e(".alice@example.test", "alice@example.test", .noMatch, "leading dot in local part"),
        e("al..ice@example.test", "al.ice@example.test", .noMatch, "double dot in local part"),
        e("alice@*.example.test", "alice@a.example.test", .noMatch, "no wildcards in email domains"),
        e("alice@[192.0.2.1]", "alice@example.test", .noMatch, "address literal refused"),
        e("example.test", "alice@example.test", .noMatch, "a domain alone is not a mailbox"),
        e("alice@exa_mple.test", "alice@example.test", .noMatch, "underscore in domain"),
        e("alice\u{0}@example.test", "alice@example.test", .noMatch, "NUL in local part"),
        e("alice@example.test", "alice", .referenceError(.missingAtSign), "reference without @"),
        e("alice@example.test", "a@b@example.test", .referenceError(.missingAtSign), "reference with two @"),
        e("alice@example.test", "@example.test", .referenceError(.invalidLocalPart(offset: 0)), "empty local part"),
        e("alice@example.test", "alice.@example.test", .referenceError(.invalidLocalPart(offset: 5)), "trailing dot in local part"),
        e("alice@example.test", "a(b)@example.test", .referenceError(.invalidLocalPart(offset: 1)), "comment characters"),
        e("alice@example.test", String(repeating: "a", count: 65) + "@example.test", .referenceError(.localPartTooLong(length: 65)), "local part over 64"),
        e("alice@example.test", "alice@example.test.", .referenceError(.emptyLabel(offset: 19)), "trailing dot in reference domain"),
        e("alice@example.test", "alice@exa_mple.test", .referenceError(.underscore(offset: 9)), "domain error offsets count from the start"),
        e("alice@example.test", "alice@", .referenceError(.empty), "empty domain"),
        e("alice@example.test", "jörg@example.test", .referenceError(.internationalizedNameNeedsALabel), "SMTPUTF8 refused"),
    ]

    @Test("rfc822Name matching", arguments: emailCases)
    func email(_ testCase: EmailCase) {
        let reference: RFC822Name
        do {
            reference = try RFC822Name(testCase.reference)
        } catch {
            #expect(testCase.expected == .referenceError(error), "reference refused: \(error)")
            return
        }
        let matched = PresentedIdentifierMatching.matches(presentedRFC822Name: testCase.presented[...], reference: reference)
        #expect(testCase.expected == (matched ? .match : .noMatch))
    }

    // MARK: Robustness

    @Test("arbitrary presented bytes never crash and match only as the rules allow")
    func arbitraryPresented() throws {
        let reference = try DNSName("www.example.test")
        let alphabet = Array("*.wWeExamplt-_0".utf8) + [0, 0xC3, 0x7F]
        let fragments = ["www", "example", "test", "*", ".", "xn--"].map { Array($0.utf8) }
        let options = PresentedIdentifierMatching.Options(publicSuffixList: Self.inlineList)
        var state: UInt64 = 0xDEAD_BEEF
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(next() % 8) {
                if next() % 2 == 0 {
                    bytes += fragments[next() % fragments.count]
                } else {
                    bytes.append(alphabet[next() % alphabet.count])
                }
            }
            let matched = PresentedIdentifierMatching.matches(presentedDNSName: bytes[...], reference: reference, options: options)
            if matched {
                var lowered = bytes.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
                if lowered.last == UInt8(ascii: ".") { lowered.removeLast() }
                let allowed = [Array("www.example.test".utf8), Array("*.example.test".utf8)]
                #expect(allowed.contains(lowered), "\(String(decoding: bytes, as: UTF8.self))")
            }
            _ = try? ReferenceIdentifier(String(decoding: bytes, as: UTF8.self))
            _ = PresentedIdentifierMatching.matches(presentedRFC822Name: bytes[...], reference: try RFC822Name("a@b.test"))
            _ = Self.inlineList.isPublicSuffix(dottedName: bytes[...])
        }
    }
}
