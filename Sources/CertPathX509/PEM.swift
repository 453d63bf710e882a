/// Textual encoding of DER objects (RFC 7468, with the tolerances real files need).
///
/// A document may hold several blocks with any text between them (OpenSSL's "-----BEGIN …-----"
/// blocks with comments, `subject=` lines, key blocks); CRLF or LF line ends; RFC 1421
/// encapsulated headers (`Proc-Type: …`) after the BEGIN line. Everything not decoded is
/// reported, so a caller can say what was skipped.
public enum PEM {
    /// One decoded block.
    public struct Block: Hashable, Sendable {
        /// The label between `BEGIN ` and the dashes (`CERTIFICATE`, `X509 CRL`, …).
        public let label: String
        /// The decoded bytes.
        public let der: [UInt8]
        /// 1-based line of the BEGIN line.
        public let line: Int
        /// RFC 1421 header lines found after BEGIN (skipped; their text).
        public let headers: [String]
    }

    /// Something in the input that was not decoded as a block.
    public struct Skipped: Hashable, Sendable, CustomStringConvertible {
        /// 1-based first and last line.
        public let lines: ClosedRange<Int>
        /// What it was: `"text"`, `"headers"` or the label of a block the caller did not ask for.
        public let kind: String

        public var description: String {
            let where_ = lines.count == 1 ? "line \(lines.lowerBound)" : "lines \(lines.lowerBound)-\(lines.upperBound)"
            return "\(where_): \(kind)"
        }
    }

    /// What a skipped block is called in ``Skipped/kind``: its label (cut after 64 characters) and "block".
    package static func skippedKind(_ label: String) -> String {
        label.isEmpty ? "block with an empty label" : "\(QuotedText.cut(label)) block"
    }

    /// Why a PEM document could not be read.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based line where the problem is.
        public let line: Int
        /// What is wrong.
        public let reason: String

        public var description: String { "line \(line): \(reason)" }
    }

    /// A decoded document: its blocks in order and what was skipped.
    public struct Document: Hashable, Sendable {
        /// Every block, in order.
        public let blocks: [Block]
        /// Text outside blocks (runs of non-blank lines) and skipped headers.
        public let skipped: [Skipped]
    }

    /// Decodes every `-----BEGIN X-----` … `-----END X-----` block of `text`. A UTF-8 byte-order mark
    /// at the start of the text or of a line is ignored (editors on Windows write one; files saved so
    /// are then concatenated). An END line outside a block is an error: the BEGIN line it closes
    /// was not read (text before it on its line), and the block would otherwise vanish unseen.
    ///
    /// - Throws: ``Error`` for a block without its END line, an END label that differs from BEGIN,
    ///   or base64 that is not valid (bad character, bad padding, data after padding).
    public static func decode(_ text: [UInt8]) throws(Error) -> Document {
        try decode(text, onMalformedBase64: nil)
    }

    /// ``decode(_:)``, but a block whose base64 is invalid is handed to `onMalformedBase64` (its
    /// label and the error) and left out, instead of failing the document: for files whose blocks
    /// are independent (a bundle of anchors), where one damaged block must not lose the others.
    package static func decode(_ text: [UInt8], onMalformedBase64: ((String, Error) -> Void)?) throws(Error) -> Document {
        try text.withUnsafeBufferPointer { decode(bytes: $0, onMalformedBase64: onMalformedBase64) }.get()
    }

    /// ``decode(_:onMalformedBase64:)`` over the text's buffer: lines are ranges of it, so reading a
    /// block copies its base64 once (into one buffer for all the document's blocks) and decodes it
    /// in one pass (issue 32: 7 µs a leaf in `certpath batch` before).
    private static func decode(bytes text: UnsafeBufferPointer<UInt8>, onMalformedBase64: ((String, Error) -> Void)?) -> Result<Document, Error> {
        func startsWithByteOrderMark(_ line: Range<Int>) -> Bool {
            line.count >= 3 && text[line.lowerBound] == 0xEF && text[line.lowerBound + 1] == 0xBB && text[line.lowerBound + 2] == 0xBF
        }
        // Lines are read one after the other, never all held: a file of line feeds would otherwise
        // cost a range per input byte.
        var lines = LineCursor(text: text, start: startsWithByteOrderMark(0..<text.count) ? 3 : 0)

        func trimmed(_ line: Range<Int>) -> Range<Int> {
            var lower = line.lowerBound, upper = line.upperBound
            // A byte-order mark starting a line: files saved with one, then concatenated.
            if startsWithByteOrderMark(line) { lower += 3 }
            while upper > lower, text[upper - 1] == 0x0D || text[upper - 1] == 0x20 || text[upper - 1] == 0x09 { upper -= 1 }
            while lower < upper, text[lower] == 0x20 || text[lower] == 0x09 { lower += 1 }
            return lower..<upper
        }
        /// The label of a line `-----BEGIN label-----` (`head` "-----BEGIN ") or `-----END label-----`.
        func label(_ line: Range<Int>, _ head: StaticString) -> String? {
            // Base64 and text lines end here.
            guard let first = line.first, text[first] == UInt8(ascii: "-") else { return nil }
            let headCount = head.utf8CodeUnitCount
            guard line.count >= headCount + 5 else { return nil }
            for offset in 0..<headCount where text[first + offset] != head.utf8Start[offset] { return nil }
            for index in (line.upperBound - 5)..<line.upperBound where text[index] != UInt8(ascii: "-") { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: text[(first + headCount)..<(line.upperBound - 5)]), as: UTF8.self)
        }

        var blocks: [Block] = []
        var skipped: [Skipped] = []
        var textRun: ClosedRange<Int>? = nil
        func flushText() {
            if let run = textRun { skipped.append(Skipped(lines: run, kind: "text")) }
            textRun = nil
        }
        /// A block's base64 without line ends and blanks; one buffer for every block of the document.
        var base64: [UInt8] = []
        while let rawLine = lines.next() {
            let line = trimmed(rawLine)
            guard let begin = label(line, "-----BEGIN ") else {
                let number = lines.number
                // An END line outside a block means its BEGIN line was not read (text before it on
                // its line): reading on would silently drop that block, and a chain file would then
                // start at its second certificate.
                if let end = label(line, "-----END ") {
                    return .failure(Error(line: number, reason: "END line for \(QuotedText.quoted(end)) without a BEGIN line before it "
                                          + "(a BEGIN line must start its line)"))
                }
                // Text between two blocks is one run, blank lines included: a file of many short
                // paragraphs reports one skipped run, not one per paragraph.
                if !line.isEmpty { textRun = textRun.map { $0.lowerBound...number } ?? number...number }
                continue
            }
            flushText()
            let beginLine = lines.number
            var headers: [String] = []
            if base64.capacity == 0 { base64.reserveCapacity(min(text.count, 1 << 16)) }
            base64.removeAll(keepingCapacity: true)
            var ended = false
            var inHeaders = true
            /// The first line holding a byte outside the base64 alphabet (for the error).
            var firstBadLine: Int?
            while let rawBody = lines.next() {
                let body = trimmed(rawBody)
                if let end = label(body, "-----END ") {
                    guard end == begin else {
                        return .failure(Error(line: lines.number,
                                              reason: "END label \(QuotedText.quoted(end)) does not match BEGIN \(QuotedText.quoted(begin)) of line \(beginLine)"))
                    }
                    ended = true
                    break
                }
                if inHeaders, body.contains(where: { text[$0] == UInt8(ascii: ":") }) {
                    headers.append(String(decoding: UnsafeBufferPointer(rebasing: text[body]), as: UTF8.self))
                } else if inHeaders, body.isEmpty, !headers.isEmpty {
                    inHeaders = false
                } else {
                    inHeaders = false
                    // One pass finds both: blanks to drop, and a byte outside base64 (for the error).
                    // The table's bit 7 marks bytes outside the alphabet ('=' among them): their OR
                    // is checked once a line, and only a line with one is looked at byte by byte.
                    var outside: UInt8 = 0
                    Base64.decodeTable.withUnsafeBufferPointer { table in
                        for index in body { outside |= table[Int(text[index])] }
                    }
                    var hasBlanks = false
                    if outside & 0x80 != 0 {
                        for index in body where !Self.isBase64Character(text[index]) {
                            let byte = text[index]
                            if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                                hasBlanks = true
                            } else if firstBadLine == nil {
                                firstBadLine = lines.number
                            }
                        }
                    }
                    if hasBlanks {
                        for index in body where text[index] != 0x20 && text[index] != 0x09 && text[index] != 0x0D { base64.append(text[index]) }
                    } else {
                        base64.append(contentsOf: UnsafeBufferPointer(rebasing: text[body]))
                    }
                }
            }
            guard ended else { return .failure(Error(line: beginLine, reason: "no \"-----END \(QuotedText.cut(begin))-----\" line for this block")) }
            guard let der = base64.withUnsafeBufferPointer({ Base64.decode(symbols: $0) }) else {
                let error = firstBadLine.map { Error(line: $0, reason: "the block's base64 is invalid: a character outside base64 on this line") }
                    ?? Error(line: beginLine, reason: "the block's base64 is invalid (length or padding)")
                guard let onMalformedBase64 else { return .failure(error) }
                onMalformedBase64(begin, error)
                continue
            }
            if !headers.isEmpty { skipped.append(Skipped(lines: (beginLine + 1)...(beginLine + headers.count), kind: "headers")) }
            blocks.append(Block(label: begin, der: der, line: beginLine, headers: headers))
        }
        flushText()
        return .success(Document(blocks: blocks, skipped: skipped))
    }

    /// Whether `byte` is of the base64 alphabet or its padding `=`.
    private static func isBase64Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return true
        default: return false
        }
    }

    /// The lines of a text, in order: the bytes between line ends, which are CRLF, CR or LF (RFC 7468
    /// 3, `eol`); the last line may end without one.
    private struct LineCursor {
        let text: UnsafeBufferPointer<UInt8>
        /// Offset of the next line's first byte.
        var start: Int
        /// 1-based number of the line ``next()`` returned last (0 before the first).
        private(set) var number = 0

        init(text: UnsafeBufferPointer<UInt8>, start: Int) {
            self.text = text
            self.start = start
        }

        /// The next line's range in ``text`` without its line end, or `nil` after the last.
        mutating func next() -> Range<Int>? {
            guard start < text.count else { return nil }
            var end = start
            // Eight bytes at a time while the word holds no CR or LF (a zero byte of word ^ CRs or
            // word ^ LFs, the usual bit trick, exact for "is there one"); then byte by byte.
            if let base = UnsafeRawPointer(text.baseAddress) {
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
                while end + 8 <= text.count {
                    let word = base.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                    if hasZeroByte(word ^ (ones &* 0x0A)) || hasZeroByte(word ^ (ones &* 0x0D)) { break }
                    end += 8
                }
            }
            while end < text.count, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
            let line = start..<end
            let crlf = end + 1 < text.count && text[end] == 0x0D && text[end + 1] == 0x0A
            start = end + (crlf ? 2 : 1)
            number += 1
            return line
        }
    }

    /// The labels read as certificates: RFC 7468 `CERTIFICATE` and the legacy `X509 CERTIFICATE`.
    public static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE"]

    /// Certificates read from PEM text or a single DER certificate.
    public struct CertificateFile: Sendable {
        /// Certificates in file order.
        public let certificates: [Certificate]
        /// What was not read as a certificate (text, headers, blocks of other labels).
        public let skipped: [Skipped]
    }

    /// What a file of one DER object or PEM text holds (``readDEROrPEM(_:der:)``).
    package enum FileContents<Object> {
        case der(Object)
        case pem(Document)
        case derError(DERError)
        case pemError(Error)
    }

    /// Reads a file that is one DER object or PEM text (certificate and CRL files, system anchor
    /// files): DER when it starts with a SEQUENCE tag (0x30) and parses with `parse`; PEM
    /// otherwise, and also when it starts with 0x30 (the text "0") without being DER but has a
    /// BEGIN line that makes a block; else the DER error stands, since it says more.
    package static func readDEROrPEM<Object>(_ bytes: [UInt8], der parse: ([UInt8]) throws(DERError) -> Object) -> FileContents<Object> {
        var derError: DERError?
        if bytes.first == 0x30 {
            do throws(DERError) { return .der(try parse(bytes)) } catch {
                guard hasBeginLine(bytes) else { return .derError(error) }
                derError = error
            }
        }
        let document: Document
        do throws(Error) { document = try decode(bytes) } catch { return .pemError(error) }
        if let derError, document.blocks.isEmpty { return .derError(derError) }
        return .pem(document)
    }

    /// Whether `bytes` hold a BEGIN line: `-----BEGIN ` at the start of the input or of a line.
    private static func hasBeginLine(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN ".utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where start == 0 || bytes[start - 1] == 0x0A || bytes[start - 1] == 0x0D {
            if bytes[start] == 0x2D && bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }

    /// Reads certificates from `bytes`: DER when the input starts with a SEQUENCE tag (0x30) and
    /// is one certificate, PEM otherwise (also text that starts with "0" and has a BEGIN line),
    /// taking every block labelled as in ``certificateLabels``.
    ///
    /// - Throws: ``CertificateFileError``: the PEM error, or the DER error of the certificate at a
    ///   given position (0-based index in the file and the block's line).
    public static func readCertificates(_ bytes: [UInt8]) throws(CertificateFileError) -> CertificateFile {
        let document: Document
        switch readDEROrPEM(bytes, der: Certificate.init(derEncoded:)) {
        case .der(let certificate): return CertificateFile(certificates: [certificate], skipped: [])
        case .derError(let error): throw .certificate(index: 0, line: nil, error)
        case .pemError(let error): throw .pem(error)
        case .pem(let decoded): document = decoded
        }
        return try certificateFile(document, readingBundles: false)
    }

    /// The certificates of a decoded PEM `document` in block order (with `readingBundles`, the
    /// certificates of each PKCS #7 / CMS block too, ``pkcs7Labels``) and the blocks skipped.
    ///
    /// - Throws: ``CertificateFileError/certificate(index:line:_:)`` for a block that does not parse,
    ///   at the certificate position it would start.
    static func certificateFile(_ document: Document, readingBundles: Bool) throws(CertificateFileError) -> CertificateFile {
        var certificates: [Certificate] = []
        var skipped = document.skipped
        for block in document.blocks {
            if readingBundles, pkcs7Labels.contains(block.label) {
                do throws(DERError) {
                    certificates += try PKCS7Certificates.read(block.der)
                } catch {
                    throw .certificate(index: certificates.count, line: block.line, error)
                }
                continue
            }
            guard certificateLabels.contains(block.label) else {
                skipped.append(Skipped(lines: block.line...block.line, kind: skippedKind(block.label)))
                continue
            }
            do throws(DERError) {
                certificates.append(try Certificate(derEncoded: block.der))
            } catch {
                throw .certificate(index: certificates.count, line: block.line, error)
            }
        }
        skipped.sort { $0.lines.lowerBound < $1.lines.lowerBound }
        return CertificateFile(certificates: certificates, skipped: skipped)
    }

    /// Why ``readCertificates(_:)`` failed.
    public enum CertificateFileError: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The PEM text is malformed.
        case pem(Error)
        /// The certificate at `index` (0-based, in file order), from the block at `line`, is malformed.
        case certificate(index: Int, line: Int?, DERError)

        public var description: String {
            switch self {
            case .pem(let error): return "PEM \(error)"
            case .certificate(let index, let line, let error):
                return "certificate \(index + 1)\(line.map { " (PEM block at line \($0))" } ?? ""): \(error)"
            }
        }
    }

    /// Encodes DER as a PEM block with 64-character lines.
    public static func encode(_ der: [UInt8], label: String = "CERTIFICATE") -> String {
        let text = Base64.encode(der)
        var out = "-----BEGIN \(label)-----\n"
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 64, limitedBy: text.endIndex) ?? text.endIndex
            out += text[index..<next] + "\n"
            index = next
        }
        return out + "-----END \(label)-----\n"
    }
}
