#!/usr/bin/env python3
"""Writes the small .npz test files in tests/data/models/npz/ (standard library only: numpy
is not needed to write the .npy format). Run from anywhere; the files are committed.

  mixed.npz   stored and deflated members, float32/float64/float16/int8/uint16, a
              fortran-order array, a big-endian array, a 0-d array and a member that is
              not a .npy (README.txt, skipped by the reader), a deflated fortran-order
              int16 array and a complex64 one (listed, not loadable)
  truncated_member.npz, no_magic_member.npz
              a member whose .npy header wants more bytes than it holds; a member that
              is no .npy
  bomb.npz    'liar': a deflated member whose zip entry and .npy header declare 6 floats
              (152 bytes) but that inflates to 4 MiB; 'honest': a deflated 4 MiB array of
              zeros (compresses ~1000:1, a legitimate file)
"""
import os
import struct
import zipfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "npz")


def npy(descr, shape, payload, fortran=False):
    shape_text = "(%s,)" % shape[0] if len(shape) == 1 else "(" + ", ".join(str(d) for d in shape) + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, "True" if fortran else "False", shape_text)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + payload


def write(name, members):
    with zipfile.ZipFile(os.path.join(HERE, name), "w") as z:
        for member, data, method in members:
            info = zipfile.ZipInfo(member, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = method
            z.writestr(info, data)


S, D = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED

write("mixed.npz", [
    # [[1, 2, 3], [4, 5, 6]] row-major
    ("weights.npy", npy("<f4", (2, 3), struct.pack("<6f", 1, 2, 3, 4, 5, 6)), S),
    ("bias.npy", npy("<f8", (3,), struct.pack("<3d", 0.5, -0.25, 1e-3)), D),
    # the same [[1, 2, 3], [4, 5, 6]] stored column-major
    ("fortran.npy", npy("<f8", (2, 3), struct.pack("<6d", 1, 4, 2, 5, 3, 6), fortran=True), S),
    ("codes.npy", npy("|i1", (4,), struct.pack("<4b", -128, -1, 0, 127)), D),
    ("big.npy", npy(">f4", (2,), struct.pack(">2f", 1.5, -2.0)), S),
    ("half.npy", npy("<f2", (3,), struct.pack("<3H", 0x3C00, 0xC000, 0x0001)), S),  # 1, -2, 2^-24
    ("u16.npy", npy("<u2", (2,), struct.pack("<2H", 0, 65535)), D),
    ("scalar.npy", npy("<f4", (), struct.pack("<f", 7.0)), S),
    ("layer/kernel.npy", npy("<f4", (1, 2), struct.pack("<2f", 0.125, 8.0)), D),
    ("README.txt", b"not an array\n", S),
    # [[1, 2], [3, 4], [5, 6]] as int16, column-major, deflated
    ("fortran_deflated.npy", npy("<i2", (3, 2), struct.pack("<6h", 1, 3, 5, 2, 4, 6), fortran=True), D),
    ("complex.npy", npy("<c8", (1,), struct.pack("<2f", 1, 2)), S),
])

# Damaged on purpose: each refused when opened, with the member named.
write("truncated_member.npz", [("short.npy", npy("<f4", (100,), struct.pack("<6f", *range(6))), S)])
write("no_magic_member.npz", [("junk.npy", b"this is not a .npy file at all", D)])

write("bomb.npz", [("liar.npy", npy("<f4", (6,), bytes(4 << 20)), D),
                   ("honest.npy", npy("<f4", (1 << 20,), bytes(4 << 20)), D)])
# Make 'liar' declare only 152 bytes (its 128-byte header plus 6 floats): patch the
# uncompressed size in its local header (offset 22) and central directory entry (offset 24).
path = os.path.join(HERE, "bomb.npz")
blob = bytearray(open(path, "rb").read())
local = blob.find(b"PK\x03\x04" + b"\x14\x00")
assert blob[local + 30:local + 30 + 8] == b"liar.npy"
central = blob.find(b"PK\x01\x02")
assert blob[central + 46:central + 46 + 8] == b"liar.npy"
struct.pack_into("<I", blob, local + 22, 152)
struct.pack_into("<I", blob, central + 24, 152)
open(path, "wb").write(bytes(blob))
