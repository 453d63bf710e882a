@_exported import struct CertPathDER.DERError
@_exported import struct CertPathDER.OID
@_exported import struct CertPathDER.UnixTime
@_exported import CertPathX509
