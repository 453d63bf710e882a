import CertPath

/// `--purpose NAME|OID` (verify, batch) and a batch line's `"purpose"`: what the end-entity
/// certificate is validated for beyond TLS (docs/CLI.md, "Purposes").
enum PurposeOption {
    /// The option spec, for a command's list.
    static let spec = OptionSpec.value(
        "purpose", "NAME|OID",
        "server or client (TLS, as --server/--client), smime (S/MIME, RFC 8550: extKeyUsage emailProtection; "
        + "smime-sign, smime-encrypt check the keyUsage for that use), code-signing (codeSigning), time-stamping "
        + "(RFC 3161 2.3: a critical extKeyUsage naming only timeStamping), any, or an extKeyUsage OID "
        + "(1.3.6.1.5.5.7.3.9); --expect-name gives the mailbox (smime) or names the certificate must carry")

    /// The words `--purpose` accepts, for messages.
    static let expected = "server, client, smime, smime-sign, smime-encrypt, code-signing, time-stamping, any, or a dotted "
        + "extKeyUsage OID such as 1.3.6.1.5.5.7.3.9"

    /// The purpose `text` names with the expected `names`; `source` names the option or member in messages.
    ///
    /// - Throws: ``CLIError``: an unknown purpose, a name that is not valid for it (an S/MIME mailbox,
    ///   a host name), more than one name where one is taken, a name given for a purpose without one.
    static func purpose(_ text: String, names: [String], source: String, nameSource: String) throws(CLIError) -> ValidationPurpose {
        func single() throws(CLIError) -> String? {
            guard names.count <= 1 else {
                throw CLIError("\(source) '\(Output.echo(text))' checks one name; \(nameSource) was given \(names.count) times")
            }
            return names.first
        }
        func noName() throws(CLIError) {
            guard names.isEmpty else { throw CLIError("\(nameSource) does not apply to \(source) '\(Output.echo(text))'") }
        }
        switch text {
        case "server":
            guard let name = try single() else { return .serverAuthentication(nil) }
            do throws(ReferenceIdentifierError) {
                return .serverAuthentication(try ReferenceIdentifier(name))
            } catch {
                throw CLIError("\(nameSource) '\(Output.echo(name))': not a valid host name or IP address: \(error)")
            }
        case "client":
            var expected: [ExpectedName] = []
            for name in names { expected.append(try VerifyCommand.expectedName(name, option: nameSource)) }
            return .clientAuthentication(expectedNames: expected)
        case "smime", "smime-sign", "smime-encrypt", "email", "emailProtection":
            let use: EmailProtectionUse = text == "smime-sign" ? .signing : text == "smime-encrypt" ? .encryption : .any
            guard let name = try single() else { return .emailProtection(mailbox: nil, use: use) }
            do throws(ReferenceIdentifierError) {
                return .emailProtection(mailbox: try RFC822Name(mailbox: name), use: use)
            } catch {
                throw CLIError("\(nameSource) '\(Output.echo(name))': not a valid mailbox (an ASCII address, or one whose "
                    + "local part is UTF-8 and whose domain is ASCII, RFC 9598): \(error)")
            }
        case "code-signing", "codeSigning":
            try noName()
            return .codeSigning
        case "time-stamping", "timeStamping":
            try noName()
            return .timeStamping
        case "any":
            try noName()
            return .any
        default:
            guard let oid = OID(dotted: text), text.contains(".") else {
                throw CLIError("\(source) '\(Output.echo(text))': expected \(expected)")
            }
            var expected: [ExpectedName] = []
            for name in names { expected.append(try VerifyCommand.expectedName(name, option: nameSource)) }
            return .extendedKeyUsage(purposes: [oid], expectedNames: expected)
        }
    }
}
