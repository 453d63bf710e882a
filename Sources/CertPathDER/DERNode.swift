/// A fully parsed DER tree, for tools and tests: every element read with the rules of ``DERReader``,
/// constructed elements descended into, universal types required in their one DER form (primitive or
/// constructed, X.690 10.2), and the universal primitive types X.509 uses validated
/// (BOOLEAN, INTEGER, ENUMERATED, BIT STRING, NULL, OBJECT IDENTIFIER, UTCTime, GeneralizedTime and
/// the character string types).
///
/// Because DER admits exactly one encoding per tree, ``encoded()`` of a parsed node returns the
/// bytes it was parsed from; the DER fuzz target asserts that.
@_spi(Fuzzing) public struct DERNode: Hashable, Sendable {
    /// Contents of a node: raw octets, or the nested elements of a constructed encoding.
    package enum Content: Hashable, Sendable {
        /// A primitive encoding's contents octets (X.690 8.1.4).
        case primitive([UInt8])
        /// A constructed encoding's nested elements, in order (X.690 8.1.5).
        case constructed([DERNode])
    }

    /// The identifier octet.
    package var tag: DERTag
    /// The contents.
    package var content: Content

    /// Creates a node.
    package init(tag: DERTag, content: Content) {
        self.tag = tag
        self.content = content
    }

    /// Parses `bytes` as exactly one DER element and everything nested in it.
    ///
    /// - Throws: ``DERError`` for the first rule broken, including `.trailingData` after the element,
    ///   `.depthExceeded` beyond `maximumDepth`, and `.unexpectedTag` for a universal type in the wrong
    ///   form (a constructed OCTET STRING, a primitive SEQUENCE) or universal tag 0.
    @_spi(Fuzzing) public static func parse(_ bytes: [UInt8]) throws(DERError) -> DERNode {
        try parse(bytes, maximumDepth: DERReader.defaultMaximumDepth)
    }

    /// ``parse(_:)`` with another nesting limit than `DERReader.defaultMaximumDepth`.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int) throws(DERError) -> DERNode {
        var reader = DERReader(bytes, maximumDepth: maximumDepth)
        let node = try parseElement(&reader)
        try reader.finish("DER element")
        return node
    }

    private static func parseElement(_ reader: inout DERReader) throws(DERError) -> DERNode {
        let element = try reader.readElement("DER element")
        try checkForm(element.tag, at: element.offset)
        if element.tag.isConstructed {
            var inner = try reader.contents(of: element, "\(element.tag)")
            var children: [DERNode] = []
            while !inner.isAtEnd { children.append(try parseElement(&inner)) }
            if element.tag == .set { try checkSetOrder(children, at: element.offset) }
            return DERNode(tag: element.tag, content: .constructed(children))
        }
        try validatePrimitive(element, reader, checkingStrings: true)
        return DERNode(tag: element.tag, content: .primitive(Array(reader.bytes[element.value])))
    }

    /// Validates `element`, already read by `reader`, and everything nested in it with the rules of
    /// ``parse(_:maximumDepth:)`` except the alphabets of character strings, without building a tree
    /// (see ``DERReader/validateTree(_:_:)``).
    static func validateTree(_ element: DERElement, _ reader: DERReader, _ expected: @autoclosure () -> String) throws(DERError) {
        try checkForm(element.tag, at: element.offset)
        guard element.tag.isConstructed else {
            try validatePrimitive(element, reader, checkingStrings: false)
            return
        }
        var inner = try reader.contents(of: element, expected())
        var previous: Range<Int>? = nil
        while !inner.isAtEnd {
            let child = try inner.readElement("DER element in \(expected())")
            try validateTree(child, inner, "\(child.tag) in \(expected())")
            if element.tag == .set {
                if let previous, reader.bytes[child.encoded].lexicographicallyPrecedes(reader.bytes[previous]) {
                    throw DERError(.unsortedSet, at: element.offset, expected: "SET OF elements in ascending order")
                }
                previous = child.encoded
            }
        }
    }

    /// Universal types in their one DER form (X.690 8.1.5, 8.2.1, 8.3.1, 8.8.1, 8.9.1, 8.11.1, 8.19.1, 10.2):
    /// SEQUENCE, SET, EXTERNAL, EMBEDDED PDV and CHARACTER STRING constructed, every other type primitive
    /// (constructed strings are BER only), and tag 0, reserved for end-of-contents, never.
    @inline(__always)
    private static func checkForm(_ tag: DERTag, at offset: Int) throws(DERError) {
        guard tag.tagClass == .universal else { return }
        let constructed: Bool
        switch tag.number {
        case 0: throw DERError(.unexpectedTag, at: offset, expected: "a tag other than universal 0 (end-of-contents)")
        case 8, 11, 16, 17, 29: constructed = true
        default: constructed = false
        }
        guard tag.isConstructed == constructed else {
            throw DERError(.unexpectedTag, at: offset, expected: "\(constructed ? "constructed" : "primitive") encoding of universal \(tag.number)")
        }
    }

    /// SET OF components sorted by encoding (X.690 11.6). Applied to every SET; X.509 uses SET only as SET OF.
    private static func checkSetOrder(_ children: [DERNode], at offset: Int) throws(DERError) {
        guard children.count > 1 else { return }
        var previous = children[0].encoded()
        for child in children.dropFirst() {
            let current = child.encoded()
            if current.lexicographicallyPrecedes(previous) {
                throw DERError(.unsortedSet, at: offset, expected: "SET OF elements in ascending order")
            }
            previous = current
        }
    }

    @inline(__always)
    private static func validatePrimitive(_ element: DERElement, _ reader: DERReader, checkingStrings: Bool) throws(DERError) {
        guard element.tag.tagClass == .universal else { return }
        switch element.tag {
        case .boolean: _ = try reader.boolean(element, "BOOLEAN")
        case .integer, .enumerated: try reader.validateInteger(element, "\(element.tag)")
        case .bitString: _ = try reader.bitString(element, "BIT STRING")
        case .null:
            guard element.value.isEmpty else { throw DERError(.invalidNull, at: element.offset, expected: "NULL") }
        case .objectIdentifier: try reader.validateObjectIdentifier(element, "OBJECT IDENTIFIER")
        case .utcTime, .generalizedTime: _ = try reader.time(element, "\(element.tag)")
        case let tag where checkingStrings && DERString.isStringType(tag):
            guard DERString.decode(reader.bytes[element.value], tag: tag) != nil else {
                throw DERError(.invalidString, at: element.offset, expected: "valid \(tag)")
            }
        default:
            break
        }
    }

    /// The DER encoding of this tree.
    @_spi(Fuzzing) public func encoded() -> [UInt8] {
        var writer = DERWriter()
        writer.append(self)
        return writer.bytes
    }

    /// Checks that `bytes` are exactly one element, DER all the way down as
    /// `DERReader.validateTree(_:_:)` checks it (character strings' alphabets not checked, unlike
    /// ``parse(_:maximumDepth:)``), with nothing after it; builds no tree. The fuzz targets assert it of
    /// every certificate, CRL and OCSP response a parser accepts.
    ///
    /// - Throws: ``DERError`` for the first rule broken; `expected` names the object in it.
    @_spi(Fuzzing) public static func validate(_ bytes: [UInt8], _ expected: String) throws(DERError) {
        var reader = DERReader(bytes)
        let root = try reader.readElement(expected)
        try reader.validateTree(root, expected)
        try reader.finish(expected)
    }
}

extension DERReader {
    /// Checks that `element` (read by this reader) is DER all the way down (X.690 10, 11): every nested
    /// element well-formed within the depth limit, universal types in their DER form (constructed only
    /// for SEQUENCE, SET and the like), BOOLEAN, INTEGER, ENUMERATED, BIT STRING, NULL, OBJECT IDENTIFIER
    /// and the time types with DER contents, SET OF components in order. For values a schema leaves open
    /// (ASN.1 `ANY`: attribute values, otherName values, policy qualifiers, algorithm parameters,
    /// x400Address, ediPartyName), which must still be DER.
    ///
    /// Unlike ``DERNode/parse(_:maximumDepth:)``, character strings are not checked against their
    /// alphabets: that is a constraint on values, not on the encoding, and real certificates carry, for
    /// example, UTF-8 in the VisibleString of a policy qualifier's explicitText. Schemas that need valid
    /// strings (names, GeneralName IA5Strings) check them where they read them.
    ///
    /// - Throws: ``DERError`` for the first rule broken inside `element`.
    package func validateTree(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) {
        try DERNode.validateTree(element, self, expected())
    }

    /// Reads the next element, whatever its tag, and checks that it is DER all the way down
    /// (``validateTree(_:_:)``): the reading of an ASN.1 `ANY` value.
    ///
    /// - Throws: the errors of ``readElement(_:)`` and ``validateTree(_:_:)``.
    package mutating func readAny(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        let element = try readElement(expected())
        try validateTree(element, expected())
        return element
    }
}

/// Writes DER: identifier, minimal definite length, contents. Used by tests and tools
/// to build inputs; certificates are never re-encoded on the validation path.
package struct DERWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    package init() {}

    /// Appends one element with `contents` as its contents octets.
    package mutating func append(_ tag: DERTag, contents: [UInt8]) {
        bytes.append(tag.rawValue)
        appendLength(contents.count)
        bytes.append(contentsOf: contents)
    }

    /// Appends a constructed element whose contents `body` writes.
    package mutating func append(_ tag: DERTag, _ body: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        body(&inner)
        append(tag, contents: inner.bytes)
    }

    /// Appends bytes that are already a DER encoding.
    package mutating func appendEncoded(_ encoded: [UInt8]) { bytes.append(contentsOf: encoded) }

    /// Appends a parsed tree.
    package mutating func append(_ node: DERNode) {
        switch node.content {
        case .primitive(let contents):
            append(node.tag, contents: contents)
        case .constructed(let children):
            append(node.tag) { inner in for child in children { inner.append(child) } }
        }
    }

    /// Appends an INTEGER in minimal two's complement.
    package mutating func appendInteger(_ value: Int64) {
        var contents: [UInt8] = []
        var rest = value
        repeat {
            contents.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while !(rest == 0 && contents[0] & 0x80 == 0) && !(rest == -1 && contents[0] & 0x80 != 0)
        append(.integer, contents: contents)
    }

    /// Appends a BOOLEAN (0xFF for true).
    package mutating func appendBoolean(_ value: Bool) { append(.boolean, contents: [value ? 0xFF : 0x00]) }

    /// Appends an OBJECT IDENTIFIER.
    package mutating func appendOID(_ oid: OID) { append(.objectIdentifier, contents: Array(oid.encoded)) }

    private mutating func appendLength(_ length: Int) {
        if length < 0x80 {
            bytes.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        bytes.append(0x80 | UInt8(octets.count))
        bytes.append(contentsOf: octets)
    }
}
