import CertPath
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading the files named on the command line, with messages that name the file and the problem.
enum Input {
    /// Largest file read (certificate bundles are far smaller; a limbo suite is about 20 MiB).
    static let maximumFileSize = 256 << 20

    /// The bytes of `path`; `-` reads standard input (to its end: a second `-` reads nothing).
    /// Every file the CLI reads by name comes through here.
    ///
    /// A file is opened with O_NONBLOCK, which is then cleared: opening a FIFO that no process
    /// writes to would otherwise wait for ever (POSIX open(2)); opened so, it reads as empty and is
    /// an error that says so, while a pipe with a writer (process substitution, `<(cmd)`) is read
    /// to its end as before.
    ///
    /// - Throws: ``CLIError`` (status 2): `FILE: cannot read: <reason>` with the system's reason
    ///   (no such file, permission denied, is a directory), a FIFO nothing was written to, or a
    ///   file larger than ``maximumFileSize``.
    static func read(_ path: String, limit: Int = maximumFileSize) throws(CLIError) -> [UInt8] {
        let isStandardInput = path == "-"
        func failure() -> CLIError { CLIError("\(Output.echo(path)): cannot read: \(String(cString: strerror(errno)))") }
        let descriptor = isStandardInput ? STDIN_FILENO : FileName.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure() }
        if !isStandardInput {
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
                let error = failure()
                close(descriptor)
                throw error
            }
        }
        guard let file = isStandardInput ? fdopen(STDIN_FILENO, "rb") : fdopen(descriptor, "rb") else {
            let error = failure()
            if !isStandardInput { close(descriptor) }
            throw error
        }
        defer { if !isStandardInput { fclose(file) } }  // (standard input stays open)
        var status = stat()
        if fstat(fileno(file), &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw CLIError("\(Output.echo(path)): cannot read: it is a directory")
        }
        func tooLarge() -> CLIError { CLIError("\(Output.echo(path)): cannot read: larger than \(limit >> 20) MiB") }
        var bytes: [UInt8] = []
        // A regular file says its size: one over the limit is refused unread, and one under it is
        // read into a buffer of its size (growing 1, 2, 4… copied a file of the limit's size twice).
        // A stream (a pipe, a device) is read until it passes the limit, never kept beyond it.
        if (status.st_mode & S_IFMT) == S_IFREG {
            guard Int(status.st_size) <= limit else { throw tooLarge() }
            bytes.reserveCapacity(Int(status.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            guard count <= limit - bytes.count else { throw tooLarge() }
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count { break }
        }
        if ferror(file) != 0 { throw CLIError("\(Output.echo(path)): cannot read: \(String(cString: strerror(errno)))") }
        if bytes.isEmpty, !isStandardInput, (status.st_mode & S_IFMT) == S_IFIFO {
            throw CLIError("\(Output.echo(path)): cannot read: it is a FIFO and no process was writing to it (nothing to read)")
        }
        return bytes
    }

    /// The contents of `path` as UTF-8 text (at most `limit` bytes).
    ///
    /// - Throws: ``CLIError`` (status 2): unreadable, too large, or not UTF-8 text (a NUL byte, or
    ///   bytes that are not UTF-8), naming the line of the first offending byte.
    static func text(_ path: String, limit: Int = maximumFileSize) throws(CLIError) -> String {
        let bytes = try read(path, limit: limit)
        if let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) { return text }
        let offset = firstOffendingByte(bytes, nulIncluded: true)
        let line = bytes[..<offset].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        throw CLIError("\(Output.echo(path)): line \(line): not UTF-8 text (byte \(offset))")
    }

    /// The offset of the first byte of `bytes` that does not start a UTF-8 encoded scalar (RFC 3629),
    /// or of the first NUL when `nulIncluded`; `bytes.count` when there is none.
    static func firstOffendingByte(_ bytes: [UInt8], nulIncluded: Bool) -> Int {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if nulIncluded && scalar.value == 0 { return offset }
                offset += UTF8.width(scalar)
            case .emptyInput, .error:
                return offset
            }
        }
    }

    /// The certificates of `path` (PEM blocks or one DER certificate) and what was skipped.
    ///
    /// - Throws: ``CLIError`` (status 2): unreadable file, malformed PEM (with its line), a malformed
    ///   certificate (its number, PEM line, the byte offset in its DER and the DER rule broken), or a
    ///   file with no certificate at all.
    static func certificates(_ path: String) throws(CLIError) -> PEM.CertificateFile {
        try certificateFile(try read(path), path: path)
    }

    /// ``certificates(_:)`` of bytes already read from `path`.
    private static func certificateFile(_ bytes: [UInt8], path: String) throws(CLIError) -> PEM.CertificateFile {
        let file = try certificates(in: bytes, source: path)
        guard !file.certificates.isEmpty else {
            // Binary that is not DER-shaped: describing it as skipped text lines would mislead.
            if let first = bytes.first, first != 0x30, bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
                throw CLIError("\(Output.echo(path)): no certificate found (neither PEM text nor a DER certificate: the file is binary "
                    + "and starts with byte 0x\(Hex.encode([first])), where a DER certificate starts with 0x30, a SEQUENCE)")
            }
            throw noCertificate(path, skipped: file.skipped)
        }
        return file
    }

    /// The certificates of `path` given with `--anchors` or `--intermediates`: a PEM certificate
    /// block that cannot be read is skipped with a warning on standard error naming the file, the
    /// certificate's number and PEM line and the DER rule broken (`certpath COMMAND: warning:
    /// --anchors FILE: certificate 2 (PEM block at line 23 …) is malformed: …; skipped …`). Such a
    /// certificate can anchor or complete no path, and one odd root in a bundle must not end the run
    /// (the library's system store skips them alike, ``SystemTrustStore``).
    ///
    /// - Throws: ``CLIError`` (status 2) as ``certificates(_:)`` when the file yields no readable
    ///   certificate at all (an unreadable file, malformed PEM text, one DER certificate that is
    ///   malformed, every block malformed): then nothing the caller named would be used, and an
    ///   empty `--anchors` must never fall back silently to the system anchors.
    ///
    /// A folder (`/etc/ssl/certs`, a `openssl rehash`ed one with `<hash>.0` links, or any folder of
    /// PEM, DER and PKCS #7 files) is read by ``certificates(inFolder:option:command:)``.
    static func certificates(_ path: String, skippingUnreadable option: String, command: String) throws(CLIError) -> [Certificate] {
        if isDirectory(path) { return try certificates(inFolder: path, option: option, command: command) }
        return try certificates(path, bytes: try read(path), skippingUnreadable: option, command: command)
    }

    /// ``certificates(_:skippingUnreadable:command:)`` of bytes already read from `path`.
    private static func certificates(_ path: String, bytes: [UInt8], skippingUnreadable option: String, command: String)
        throws(CLIError) -> [Certificate] {
        var warnings: [String] = []
        // A PEM file whose blocks are independent: a block with damaged base64 is skipped like a
        // certificate that does not parse (it can anchor or complete nothing), the others are read.
        let lenient: PEM.Document?
        switch PEM.readDEROrPEM(bytes, der: Certificate.init(derEncoded:)) {
        case .pem(let document): lenient = document
        case .pemError:
            lenient = try? PEM.decode(bytes, onMalformedBase64: { label, error in
                guard PEM.certificateLabels.contains(label) || PEM.pkcs7Labels.contains(label) else { return }
                warnings.append("certpath \(command): warning: --\(option) \(Output.echo(path)): a \(label) block is malformed "
                    + "(\(error)); skipped (a certificate that cannot be read can anchor or complete no path)")
            })
        default: lenient = nil
        }
        guard let document = lenient else { return try certificateFile(bytes, path: path).certificates }
        var readable: [Certificate] = []
        var index = 0
        for block in document.blocks where PEM.certificateLabels.contains(block.label) || PEM.pkcs7Labels.contains(block.label) {
            do throws(DERError) {
                if PEM.pkcs7Labels.contains(block.label) {
                    // A certs-only PKCS #7 bundle (RFC 5652 5.1): all its certificates, or none.
                    readable += try PKCS7Certificates.read(block.der)
                } else {
                    readable.append(try Certificate(derEncoded: block.der))
                }
            } catch {
                warnings.append("certpath \(command): warning: --\(option) "
                    + message(for: .certificate(index: index, line: block.line, error), source: path)
                    + "; skipped (a certificate that cannot be read can anchor or complete no path)")
            }
            index += 1
        }
        // Nothing readable: the error of the whole file, as without this option.
        guard !readable.isEmpty else { return try certificateFile(bytes, path: path).certificates }
        for warning in warnings { Output.error(warning) }
        return readable
    }

    /// Largest file of a folder read (`--anchors DIR`, `--intermediates DIR`), as for the system anchors.
    static let maximumFolderFileSize = 64 << 20
    /// Largest total of a folder's files read.
    static let maximumFolderSize = 256 << 20

    /// `certificates` with each DER once, in first-seen order: the same certificate given by
    /// several sources (a file, a hashed folder, a bundle repeating it) is one anchor or intermediate.
    static func distinct(_ certificates: [Certificate]) -> [Certificate] {
        var seen = Set<[UInt8]>()
        return certificates.filter { seen.insert($0.der).inserted }
    }

    /// Whether `path` names a directory (after symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return path != "-" && FileName.status(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The certificates of every file of the folder `path` (`--anchors DIR`, `--intermediates DIR`),
    /// as `openssl verify -CApath` reads OpenSSL's hashed folders (`/etc/ssl/certs`, a folder made by
    /// `openssl rehash`) and as a folder of PEM, DER or PKCS #7 files is meant: every regular file
    /// and symbolic link to one is read once (a `<hash>.0` link and the file it names are one file),
    /// in name order, not its subfolders; a certificate met twice (the same DER in a bundle and in
    /// its own file) is taken once. A file without a readable certificate (a README, a key, a
    /// malformed file) is skipped with a warning on standard error naming it and why, as a
    /// malformed block of a bundle is.
    ///
    /// - Throws: ``CLIError`` (status 2): the folder cannot be listed, or none of its files holds a
    ///   readable certificate (an empty `--anchors` must never fall back to the system anchors).
    static func certificates(inFolder path: String, option: String, command: String) throws(CLIError) -> [Certificate] {
        guard let directory = FileName.openDirectory(path) else {
            throw CLIError("\(Output.echo(path)): cannot read the folder: \(String(cString: strerror(errno)))")
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            // The entry's own bytes (FileName): a name that is not UTF-8 is read, not passed over.
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { FileName.decode(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        let folder = path.hasSuffix("/") ? path : path + "/"
        var readFiles = Set<String>()
        var seen = Set<[UInt8]>()
        var found: [Certificate] = []
        var warnings: [String] = []
        // The files to read, each once, with the size limits checked before any is read: a file over
        // 64 MiB is skipped with a warning (as the system anchors' files are), a folder over 256 MiB
        // in all is an error.
        var files: [String] = []
        var total = 0
        for name in names.sorted() {
            let file = folder + name
            var status = stat()
            // Regular files, directly or through a link; a dangling link, a subfolder, a FIFO are passed over.
            guard FileName.status(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            // Each file once: a hashed link and its target resolve to one path.
            if let resolved = FileName.resolved(file) {
                guard readFiles.insert(resolved).inserted else { continue }
            }
            guard Int(status.st_size) <= maximumFolderFileSize else {
                warnings.append("certpath \(command): warning: --\(option) \(Output.echo(file)): larger than \(maximumFolderFileSize >> 20) MiB "
                    + "(the limit for one file of a folder); skipped")
                continue
            }
            total += Int(status.st_size)
            guard total <= maximumFolderSize else {
                throw CLIError("\(Output.echo(path)): the folder's files hold more than \(maximumFolderSize >> 20) MiB in all "
                    + "(the limit for a folder of certificates); give the files needed, or a smaller folder")
            }
            files.append(file)
        }
        for file in files {
            let read: [Certificate]
            do throws(CLIError) {
                read = try certificates(file, bytes: try Input.read(file), skippingUnreadable: option, command: command)
            } catch {
                warnings.append("certpath \(command): warning: --\(option) \(error.message); skipped (a file without a readable "
                    + "certificate can anchor or complete no path)")
                continue
            }
            for certificate in read where seen.insert(certificate.der).inserted { found.append(certificate) }
        }
        // Nothing readable: one error, not a warning a file (the folder is the mistake).
        guard !found.isEmpty else {
            let what = warnings.isEmpty ? "it holds no regular file" : "none of its \(warnings.count) files holds a readable certificate"
            throw CLIError("\(Output.echo(path)): no certificate found in the folder (\(what))")
        }
        for warning in warnings { Output.error(warning) }
        return found
    }

    /// `FILE: no certificate found (…; found only line 1: PRIVATE KEY block)`.
    static func noCertificate(_ path: String, skipped: [PEM.Skipped]) -> CLIError {
        // At most the first ten things found, then how many more.
        let listed = skipped.prefix(10).map { Output.echo($0.description) }.joined(separator: ", ")
        let more = skipped.count > 10 ? " and \(skipped.count - 10) more" : ""
        let found = skipped.isEmpty ? "" : "; found only \(listed)\(more)"
        return CLIError("\(Output.echo(path)): no certificate found (expected PEM \"CERTIFICATE\" blocks or one DER certificate\(found))")
    }

    /// The certificates of `bytes`; `source` names them in messages (a file name, `line 3`).
    static func certificates(in bytes: [UInt8], source: String) throws(CLIError) -> PEM.CertificateFile {
        do throws(PEM.CertificateFileError) {
            return try PEM.readCertificatesAndBundles(bytes)
        } catch {
            // A DER file that is a CRL, not a certificate: say so rather than name a DER rule.
            if case .certificate(0, nil, _) = error, (try? CertificateRevocationList(derEncoded: bytes)) != nil {
                throw CLIError("\(Output.echo(source)): is a CRL (CertificateList), not a certificate (verify takes CRLs with --crl)")
            }
            if case .certificate(0, nil, _) = error, looksLikeOCSPResponse(bytes) {
                throw CLIError("\(Output.echo(source)): is an OCSP response, not a certificate (verify takes OCSP responses with --ocsp)")
            }
            // A PKCS #7 / CMS message that does not parse: the message is damaged, not "certificate 1".
            for message in pkcs7Messages(bytes) {
                do throws(DERError) {
                    _ = try PKCS7Certificates.read(message.der)
                } catch {
                    let block = message.line.map { " (PEM block at line \($0); byte offsets count from the start of the block's decoded DER)" } ?? ""
                    throw CLIError("\(Output.echo(source)): the PKCS #7 / CMS structure\(block) is damaged: byte \(error.offset): "
                        + "\(error.code.rawValue) (expected \(error.expected))")
                }
            }
            throw CLIError(message(for: error, source: source))
        }
    }

    /// The PKCS #7 / CMS messages of `bytes`: the whole file when it is one DER ContentInfo of
    /// id-signedData (its OID within the first bytes), or each PEM block labelled PKCS7 or CMS.
    static func pkcs7Messages(_ bytes: [UInt8]) -> [(der: [UInt8], line: Int?)] {
        // id-signedData, 1.2.840.113549.1.7.2, as an encoded OBJECT IDENTIFIER (X.690 8.19).
        let signedData: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        if bytes.first == 0x30 {
            let head = Array(bytes.prefix(16))
            let found = head.count >= signedData.count && (0...(head.count - signedData.count)).contains { Array(head[$0..<($0 + signedData.count)]) == signedData }
            return found ? [(bytes, nil)] : []
        }
        guard let document = try? PEM.decode(bytes) else { return [] }
        return document.blocks.filter { PEM.pkcs7Labels.contains($0.label) }.map { ($0.der, $0.line) }
    }

    /// The certificates of a LEAF file (`verify LEAF`): ``certificates(_:)``, refusing a signed
    /// PKCS #7 / CMS message (signerInfos present): its certificates are an unordered SET (RFC 5652
    /// 5.1), so which one is the end entity is unknown; a certs-only bundle is read in its order.
    static func leafCertificates(_ path: String) throws(CLIError) -> PEM.CertificateFile {
        let bytes = try read(path)
        for message in pkcs7Messages(bytes) where (try? PKCS7Certificates.readSignedData(message.der))?.hasSigners == true {
            throw CLIError("\(Output.echo(path)): is a signed PKCS #7 / CMS message (it has signerInfos), not a certs-only bundle: "
                + "its certificates are an unordered set (RFC 5652 5.1), so which is the end entity is unknown; give the signer's "
                + "certificate as LEAF and the message with --intermediates")
        }
        return try certificateFile(bytes, path: path)
    }

    /// `FILE: certificate 2 (PEM block at line 23): malformed DER at byte 14: nonMinimalLength
    /// (expected minimal length)` or `FILE: invalid PEM at line 4: …`.
    static func message(for error: PEM.CertificateFileError, source: String) -> String {
        let source = Output.echo(source)
        switch error {
        case .pem(let pem):
            return "\(source): invalid PEM at line \(pem.line): \(pem.reason)"
        case .certificate(let index, let line, let der):
            let block = line.map { " (PEM block at line \($0); byte offsets count from the start of the block's decoded DER)" } ?? ""
            return "\(source): certificate \(index + 1)\(block) is malformed: byte \(der.offset): \(der.code.rawValue) "
                + "(expected \(der.expected))"
        }
    }

    // MARK: - OCSP responses

    /// The PEM label of an OCSP response (as `openssl ocsp` and RFC 7468-style tools write it).
    static let ocspLabel = "OCSP RESPONSE"

    /// Whether `bytes` start as an OCSPResponse does (RFC 6960 4.2.1): a SEQUENCE whose first element
    /// is an ENUMERATED (responseStatus). A certificate or a CRL starts with a SEQUENCE inside.
    static func looksLikeOCSPResponse(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 2, bytes[0] == 0x30, bytes[1] != 0x80 else { return false }
        let lengthOctets = bytes[1] < 0x80 ? 0 : Int(bytes[1] & 0x7F)
        guard lengthOctets <= 4, 2 + lengthOctets < bytes.count else { return false }
        return bytes[2 + lengthOctets] == 0x0A
    }

    /// The OCSP responses of `path` (`--ocsp`): one DER OCSPResponse, or PEM `OCSP RESPONSE` blocks.
    ///
    /// - Throws: ``CLIError`` (status 2): unreadable file, malformed PEM, a malformed response (its
    ///   number, PEM line, the byte offset and the DER rule broken, as for `--crl`), or a file without
    ///   any response.
    static func ocspResponses(_ path: String) throws(CLIError) -> [OCSPResponse] {
        let responses = try ocspResponses(in: try read(path), source: path)
        guard !responses.isEmpty else {
            throw CLIError("\(Output.echo(path)): no OCSP response found (expected DER or PEM \"\(ocspLabel)\" blocks)")
        }
        return responses
    }

    /// The OCSP responses of `bytes` (blocks of other labels and text are passed over); `source`
    /// names them in messages.
    ///
    /// - Throws: ``CLIError``: `FILE: OCSP response 2 (PEM block at line 9): byte 14: truncated (…)`,
    ///   `FILE: PEM line 4: …`. Offsets count from the start of the file (DER) or of the block's
    ///   decoded DER (PEM).
    static func ocspResponses(in bytes: [UInt8], source: String) throws(CLIError) -> [OCSPResponse] {
        let document: PEM.Document
        switch PEM.readDEROrPEM(bytes, der: OCSPResponse.init(derEncoded:)) {
        case .der(let response): return [response]
        case .derError(let error): throw CLIError("\(Output.echo(source)): OCSP response 1: \(error)")
        case .pemError(let error): throw CLIError("\(Output.echo(source)): PEM \(error)")
        case .pem(let decoded): document = decoded
        }
        var responses: [OCSPResponse] = []
        for block in document.blocks where block.label == ocspLabel {
            do throws(DERError) {
                responses.append(try OCSPResponse(derEncoded: block.der))
            } catch {
                throw CLIError("\(Output.echo(source)): OCSP response \(responses.count + 1) (PEM block at line \(block.line)): \(error)")
            }
        }
        return responses
    }

    /// What `show` prints of one file: its certificates, its OCSP responses, and what it skipped.
    struct ShownFile {
        let certificates: [Certificate]
        let ocspResponses: [OCSPResponse]
        let skipped: [PEM.Skipped]
    }

    /// The certificates and OCSP responses of `path` (`show`): one DER certificate, one DER OCSP
    /// response, or PEM `CERTIFICATE` and `OCSP RESPONSE` blocks.
    ///
    /// - Throws: ``CLIError`` (status 2): as ``certificates(_:)`` and ``ocspResponses(in:source:)``;
    ///   a file with neither is the "no certificate found" error.
    static func shownFile(_ path: String) throws(CLIError) -> ShownFile {
        let bytes = try read(path)
        // A DER OCSP response is told apart by its first element, as a DER CRL is by its shape;
        // text that merely starts so but holds PEM blocks is read as PEM below.
        if looksLikeOCSPResponse(bytes) {
            switch PEM.readDEROrPEM(bytes, der: OCSPResponse.init(derEncoded:)) {
            case .der(let response): return ShownFile(certificates: [], ocspResponses: [response], skipped: [])
            case .derError(let error): throw CLIError("\(Output.echo(path)): OCSP response 1: \(error)")
            case .pem, .pemError: break
            }
        }
        let file = try certificates(in: bytes, source: path)
        let ocspKind = PEM.skippedKind(ocspLabel)
        guard file.skipped.contains(where: { $0.kind == ocspKind }) else {
            guard !file.certificates.isEmpty else { throw noCertificate(path, skipped: file.skipped) }
            return ShownFile(certificates: file.certificates, ocspResponses: [], skipped: file.skipped)
        }
        let responses = try ocspResponses(in: bytes, source: path)
        return ShownFile(certificates: file.certificates, ocspResponses: responses, skipped: file.skipped.filter { $0.kind != ocspKind })
    }

    /// A validation time from `--at` or a batch line's `time`.
    ///
    /// - Throws: ``CLIError``: the text is not RFC 3339.
    static func time(_ text: String, option: String) throws(CLIError) -> UnixTime {
        guard let time = UnixTime(rfc3339: text) else {
            throw CLIError("\(option): bad time '\(Output.echo(text))': expected RFC 3339 such as 2026-06-01T00:00:00Z "
                + "or 2026-06-01T02:00:00+02:00, or a date such as 2026-06-01")
        }
        return time
    }
}

/// Output helpers.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) {
        print(text)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        var bytes = Array((text + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Flushes standard output (before exiting or between batch chunks). A failed write (a full
    /// disk, a closed descriptor) is remembered in ``writeError`` for the exit status.
    static func flush() {
        // Every output stream: `stdout` itself is a C global Swift 6 refuses to touch.
        if fflush(nil) != 0 { writeError.store(errno == 0 ? EIO : errno, ordering: .relaxed) }
    }

    /// The `errno` of the first failed write to standard output, 0 while none failed: a flush in the
    /// middle of a run can fail, and the stream then drops what it held, so the final flush alone
    /// would not see it.
    static let writeError = Atomic<Int32>(0)

    /// The most Unicode scalars of a user-supplied value that ``echo(_:)`` keeps.
    static let echoLimit = 200

    /// A user-supplied value (an argument, a file name, a batch line's member, a label read from a
    /// file) as an error message quotes it: the value itself when it has at most ``echoLimit`` Unicode
    /// scalars, else its first ``echoLimit`` scalars, `…` and ` (N bytes)` (N: its whole UTF-8
    /// length), so a huge value cannot make a huge message. Every error message that echoes such a
    /// value goes through here.
    static func echo(_ value: String) -> String {
        // A byte of a name that is not UTF-8 as \xNN.
        cut(FileName.displayed(value), atScalars: echoLimit) { "… (\($0) bytes)" }
    }

    /// The most Unicode scalars a line of the human output (`verify`, `connect`, `show`) shows: a
    /// name of megabytes (a subject of 2,000 values of 1 KB) made a 2 MB line, and the name is in
    /// several lines (a reviewer's friction). `--json` gives every value whole.
    static let humanLineLimit = 4_096

    /// `line` when it has at most ``humanLineLimit`` Unicode scalars, else its first ones and a note
    /// of the cut.
    static func clipped(_ line: String) -> String {
        cut(line, atScalars: humanLineLimit) { "… (a line of \($0) bytes, cut; --json gives it whole)" }
    }

    /// `text` when it has at most `limit` Unicode scalars, else its first `limit` followed by
    /// `note(its whole UTF-8 length)`.
    private static func cut(_ text: String, atScalars limit: Int, _ note: (Int) -> String) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end < scalars.endIndex else { return text }
        return String(scalars[..<end]) + note(text.utf8.count)
    }

    /// Text from a certificate (names, SANs, messages quoting them) made safe for a terminal:
    /// control characters become `\xNN`, so a crafted name cannot move the cursor or fake a line,
    /// and the invisible bidirectional formatting characters (U+061C, U+200E, U+200F,
    /// U+202A–U+202E, U+2066–U+2069) become `\u{NNNN}`, so a name cannot display reordered; so do the
    /// line and paragraph separators U+2028 and U+2029 (a line break to some terminals), and the
    /// invisible U+00AD, U+200B and U+FEFF (a name that looks like another).
    static func safe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            } else if scalar.value == 0x061C || scalar.value == 0x200E || scalar.value == 0x200F
                        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                        || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF
                        || scalar.value == 0x200B || scalar.value == 0x00AD {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Lowercase hex, optionally with a separator.
    static func hex<C: Collection<UInt8>>(_ bytes: C, separator: String = "") -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for (index, byte) in bytes.enumerated() {
            if index > 0 { out += separator }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return out
    }
}

/// A buffer that concurrent workers fill, each at indices no other worker writes.
///
/// `@unchecked Sendable` because the compiler cannot see that the index sets are disjoint; every use
/// (``BatchCommand``, ``LimboCommand``) stripes indices by worker so that they are, and reads the buffer
/// only after `DispatchQueue.concurrentPerform` has returned.
struct DisjointWrites<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>

    /// Stores `value` at `index`; only one worker may ever write a given index.
    func store(_ value: Element, at index: Int) { buffer[index] = value }
}
