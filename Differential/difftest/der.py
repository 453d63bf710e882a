"""A small DER encoder: exactly the bytes we ask for, including the ones pyca's builder refuses
(duplicate extensions, extensions in a v1 certificate, negative or zero serial numbers...).

Every function returns bytes (a complete TLV). Nothing here validates: a mutation that wants a
non-conforming structure gets it."""

import datetime
import ipaddress


def length(n):
    if n < 0x80:
        return bytes([n])
    out = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(out)]) + out


def tlv(tag, content):
    return bytes([tag]) + length(len(content)) + content


def seq(*items):
    return tlv(0x30, b"".join(items))


def set_of(*items):
    # DER SET OF: elements sorted by their encoding (X.690 11.6).
    return tlv(0x31, b"".join(sorted(items)))


def integer(value):
    """Minimal two's complement INTEGER (negative values included)."""
    if value == 0:
        body = b"\x00"
    else:
        nbytes = (value.bit_length() + 8) // 8  # room for the sign bit
        body = value.to_bytes(nbytes, "big", signed=True)
        while len(body) > 1 and (
            (body[0] == 0x00 and body[1] < 0x80) or (body[0] == 0xFF and body[1] >= 0x80)
        ):
            body = body[1:]
    return tlv(0x02, body)


def integer_raw(body):
    """INTEGER with the given content octets (no minimisation)."""
    return tlv(0x02, body)


def boolean(value):
    return tlv(0x01, b"\xff" if value else b"\x00")


def null():
    return b"\x05\x00"


def oid(dotted):
    parts = [int(p) for p in dotted.split(".")]
    first = parts[0] * 40 + parts[1]
    body = bytearray()
    for n in [first] + parts[2:]:
        chunk = [n & 0x7F]
        n >>= 7
        while n:
            chunk.append(0x80 | (n & 0x7F))
            n >>= 7
        body.extend(reversed(chunk))
    return tlv(0x06, bytes(body))


def octet_string(data):
    return tlv(0x04, data)


def bit_string(data, unused=0):
    return tlv(0x03, bytes([unused]) + data)


def named_bits(bits):
    """BIT STRING of a named bit list (bit 0 first), DER: no trailing zero bits."""
    if not bits:
        return bit_string(b"")
    top = max(bits)
    nbytes = top // 8 + 1
    data = bytearray(nbytes)
    for b in bits:
        data[b // 8] |= 0x80 >> (b % 8)
    unused = 7 - (top % 8)
    return bit_string(bytes(data), unused)


def utf8(s):
    return tlv(0x0C, s.encode("utf-8"))


def printable(s):
    return tlv(0x13, s.encode("ascii"))


def ia5(s):
    return tlv(0x16, s.encode("ascii"))


def explicit(n, content):
    return tlv(0xA0 + n, content)


def implicit_prim(n, content):
    return tlv(0x80 + n, content)


def implicit_cons(n, content):
    return tlv(0xA0 + n, content)


def utc_time(dt):
    return tlv(0x17, dt.strftime("%y%m%d%H%M%SZ").encode())


def generalized_time(dt):
    return tlv(0x18, dt.strftime("%Y%m%d%H%M%SZ").encode())


def time(dt, force_generalized=False):
    """RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050."""
    if force_generalized or dt.year >= 2050:
        return generalized_time(dt)
    return utc_time(dt)


# ---------------------------------------------------------------------------------------------
# Names: a Name is a list of RDNs, each RDN a list of (attribute OID, string type, value).

STRING_ENCODERS = {"utf8": utf8, "printable": printable, "ia5": ia5}


def name(rdns):
    return seq(*[set_of(*[seq(oid(a), STRING_ENCODERS[t](v)) for (a, t, v) in rdn]) for rdn in rdns])


# GeneralName (RFC 5280 4.2.1.6), as (kind, value) pairs.
def general_name(kind, value):
    if kind == "dns":
        return implicit_prim(2, value.encode("ascii"))
    if kind == "email":
        return implicit_prim(1, value.encode("ascii"))
    if kind == "uri":
        return implicit_prim(6, value.encode("ascii"))
    if kind == "ip":
        return implicit_prim(7, ipaddress.ip_address(value).packed)
    if kind == "ipnet":  # name-constraint form: address and mask
        net = ipaddress.ip_network(value, strict=False)
        return implicit_prim(7, net.network_address.packed + net.netmask.packed)
    if kind == "dirname":
        return explicit(4, name(value))
    raise ValueError(kind)


def utc(y, m, d, hh=0, mm=0, ss=0):
    return datetime.datetime(y, m, d, hh, mm, ss, tzinfo=datetime.timezone.utc)
