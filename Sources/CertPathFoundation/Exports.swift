// CertPathFoundation's users get the JSON readers of CertPath's inputs (`CTLogList(jsonBytes:)`) too.
@_exported import CertPathJSON
