// The X.509 model is read through its DER layer: users of CertPathX509 see the three CertPathDER
// types its API names (OID, UnixTime, DERError) without importing it themselves. The reader and
// writer machinery (DERReader, DERTag, DERWriter, …) is `package`: files here import CertPathDER.
@_exported import struct CertPathDER.DERError
@_exported import struct CertPathDER.OID
@_exported import struct CertPathDER.UnixTime
