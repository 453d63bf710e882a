@_exported import CertPathDER
