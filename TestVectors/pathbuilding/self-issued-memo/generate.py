# Self-issued certificates sent among the intermediates (review of the path builder): a self-signed root X sent by the server, reached by two intermediates of one name.
import datetime, os
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

out = os.path.dirname(os.path.abspath(__file__))
def name(cn): return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "CertPath Review"), x509.NameAttribute(NameOID.COMMON_NAME, cn)])
def key(): return ec.generate_private_key(ec.SECP256R1())
V = (datetime.datetime(2025,1,1), datetime.datetime(2045,1,1))
E = (datetime.datetime(2020,1,1), datetime.datetime(2021,1,1))
serial = [100]
def cert(subject, subject_key, issuer, issuer_key, ca, validity=V, ski=True, aki_key=None, san=None, bogus_ski=False):
    serial[0] += 1
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(subject_key.public_key())
         .serial_number(serial[0]).not_valid_before(validity[0]).not_valid_after(validity[1])
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        b = b.add_extension(x509.KeyUsage(False,False,False,False,False,True,True,False,False), critical=True)
    else:
        b = b.add_extension(x509.KeyUsage(True,False,False,False,False,False,False,False,False), critical=True)
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    if bogus_ski: b = b.add_extension(x509.SubjectKeyIdentifier(b"\x5a" * 20), critical=False)
    elif ski: b = b.add_extension(x509.SubjectKeyIdentifier.from_public_key(subject_key.public_key()), critical=False)
    if aki_key is not None: b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(aki_key.public_key()), critical=False)
    if san: b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(san)]), critical=False)
    return b.sign(issuer_key, hashes.SHA256())
def save(n, c): open(os.path.join(out, n), "wb").write(c.public_bytes(serialization.Encoding.PEM))

kx, kt, km, kl = key(), key(), key(), key()
top, mid = name("Review Top"), name("Review Mid")
save("x-root.pem", cert(top, kx, top, kx, True))                       # self-signed, sent by the server, untrusted
save("t-anchor.pem", cert(top, kt, top, kt, True))                     # trusted, same name, other key
save("a1-expired.pem", cert(mid, km, top, kx, True, validity=E, aki_key=kx))  # SKI matches the leaf's AKI
save("a2-noski.pem", cert(mid, km, top, kx, True, bogus_ski=True, aki_key=kx))  # SKI mismatching the leaf AKI: ranked after A1
save("leaf.pem", cert(name("leaf.review.test"), kl, mid, km, False, aki_key=km, san="leaf.review.test"))
save("z-distrusted-kt.pem", cert(name("Review Distrusted"), kt, name("Review Distrusted"), kt, True))  # distrusts T's key (another store)
