import Foundation
import Testing

/// Reviewer findings on PKCS #7 inputs: a damaged message was reported as "certificate 1 is
/// malformed"; a signed message (signerInfos present) was read as a chain whose first certificate
/// became the leaf, though its certificates are an unordered SET (RFC 5652 5.1).
@Suite struct PKCS7InputCLITests {
    typealias Files = PurposeInputCLITests.Files

    @Test func aDamagedPKCS7IsReportedAsSuch() throws {
        let files = try Files()
        defer { files.remove() }
        try Files.openssl(["crl2pkcs7", "-nocrl", "-certfile", "root.pem", "-outform", "DER", "-out", "root.p7b"], in: files.directory)
        let whole = try Data(contentsOf: URL(fileURLWithPath: files.path("root.p7b")))
        try whole.prefix(whole.count - 40).write(to: URL(fileURLWithPath: files.path("cut.p7b")))
        for option in [["cut.p7b", "--anchors", "root.pem"], ["inter.pem", "--anchors", "cut.p7b"]] {
            let run = try CLI.run(["verify"] + option, in: files.directory)
            #expect(run.status == 2)
            #expect(run.stderr.contains("cut.p7b: the PKCS #7 / CMS structure is damaged: byte "), "\(run.stderr)")
            #expect(!run.stderr.contains("certificate 1 is malformed"), "\(run.stderr)")
        }
    }

    @Test func aSignedMessageIsRefusedAsTheLeafButReadAsABagOfCertificates() throws {
        let files = try Files()
        defer { files.remove() }
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: files.path("message.txt")))
        try Files.openssl(["smime", "-sign", "-in", "message.txt", "-signer", "smime.pem", "-inkey", "leaf.key", "-certfile", "root.pem",
                           "-outform", "DER", "-out", "signed.p7m"], in: files.directory)
        let leaf = try CLI.run(["verify", "signed.p7m", "--intermediates", "inter.pem", "--anchors", "root.pem"], in: files.directory)
        #expect(leaf.status == 2)
        #expect(leaf.stdout.isEmpty)
        #expect(leaf.stderr.contains("signed.p7m: is a signed PKCS #7 / CMS message (it has signerInfos), not a certs-only bundle"),
                "\(leaf.stderr)")
        // As --intermediates it is a bag of certificates: the leaf chains through inter.pem to the root it holds.
        let bag = try CLI.run(["verify", "smime.pem", "--intermediates", "inter.pem", "--intermediates", "signed.p7m",
                               "--anchors", "root.pem", "--purpose", "smime"], in: files.directory)
        #expect(bag.status == 0, "\(bag.stdout)\(bag.stderr)")
    }
}
