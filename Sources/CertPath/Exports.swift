@_exported import CertPathDER
@_exported import CertPathX509
