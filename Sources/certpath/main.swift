import CertPath
import Foundation
for path in CommandLine.arguments.dropFirst() {
    let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
    do throws(PEM.CertificateFileError) {
        let file = try PEM.readCertificates(bytes)
        for c in file.certificates { print(c, c.subjectAlternativeNames ?? []) }
    } catch { print(path, error) }
}
