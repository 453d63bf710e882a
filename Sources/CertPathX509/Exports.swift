// The X.509 model is read through its DER layer: users of CertPathX509 see CertPathDER's types
// (OID, UnixTime, DERError) without importing it themselves.
@_exported import CertPathDER
