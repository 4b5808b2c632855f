#!/usr/bin/env python3
"""make_npy_seeds: write a small seed corpus of .npy files for fuzz_npy into DIR.

Valid files of every supported kind (format 1.0/2.0/3.0, every integer width, signed and
unsigned, little and big endian, bool, ranks 1..4) and a few that must be rejected (float,
Fortran order, rank 5, truncated data), so the fuzzer starts next to every branch of the
reader. Only the standard library: no numpy."""
import struct
import sys


def npy(shape, descr, vals, major=1, fortran=False, extra=b""):
    shp = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    hdr = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False", shp)
    pre = 10 if major == 1 else 12
    hdr += " " * ((64 - (pre + len(hdr) + 1) % 64) % 64) + "\n"
    lenfmt = "<H" if major == 1 else "<I"
    code = {"i1": "b", "u1": "B", "b1": "?", "i2": "h", "u2": "H", "i4": "i", "u4": "I",
            "i8": "q", "u8": "Q", "f4": "f", "f8": "d"}[descr[1:]]
    order = ">" if descr[0] == ">" else "<"
    data = struct.pack(order + "%d%s" % (len(vals), code), *vals)
    return (b"\x93NUMPY" + bytes([major, 0]) + struct.pack(lenfmt, len(hdr)) +
            hdr.encode("latin-1" if major < 3 else "utf-8") + data + extra)


def main():
    d = sys.argv[1]
    seeds = {
        "i1_rank4.npy": npy((1, 2, 2, 2), "|i1", [-128, 127, 0, 1, -1, 5, 6, 7]),
        "u1_rank1.npy": npy((3,), "|u1", [0, 255, 7]),
        "b1_rank2.npy": npy((2, 2), "|b1", [True, False, False, True]),
        "i2_rank3.npy": npy((2, 1, 2), "<i2", [-32768, 32767, 3, -4]),
        "i2_big.npy": npy((2, 2), ">i2", [1, -2, 300, -300]),
        "u2_v2.npy": npy((1, 1, 1, 2), "<u2", [65535, 1], major=2),
        "i4_v3.npy": npy((2, 1), "<i4", [-(1 << 31), (1 << 31) - 1], major=3),
        "u4_big.npy": npy((2,), ">u4", [0xFFFFFFFF, 1]),
        "i8.npy": npy((2,), "<i8", [-(1 << 63), (1 << 63) - 1]),
        "u8_big.npy": npy((2,), ">u8", [(1 << 63) - 1, 1 << 63]),
        "f4_rejected.npy": npy((2,), "<f4", [1.5, -2.0]),
        "fortran_rejected.npy": npy((2, 2), "<i4", [1, 2, 3, 4], fortran=True),
        "rank5_rejected.npy": npy((1, 1, 1, 1, 2), "|i1", [1, 2]),
        "truncated.npy": npy((4, 4), "<i2", [1] * 16)[:-5],
    }
    for name, data in seeds.items():
        with open("%s/%s" % (d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
