#!/usr/bin/env python3
"""make_npy_seeds: write a small seed corpus of .npy files for fuzz_npy into DIR.

Valid files of every supported kind (format 1.0/2.0/3.0, every integer width, signed and
unsigned, little and big endian, bool, ranks 1..4) and a few that must be rejected (float,
Fortran order, rank 5, truncated data), so the fuzzer starts next to every branch of the
reader. Only the standard library: no numpy."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tensors import npy_bytes  # noqa: E402


def npy(shape, descr, vals, major=1, fortran=False, extra=b""):
    return npy_bytes(shape, descr, vals, major, fortran) + extra


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
        "f4.npy": npy((2,), "<f4", [1.5, -2.0]),
        "f2_big.npy": npy((2, 1), ">f2", [0.5, -65504.0]),
        "f8_rejected.npy": npy((2,), "<f8", [1.5, -2.0]),
        "fortran_rejected.npy": npy((2, 2), "<i4", [1, 2, 3, 4], fortran=True),
        "rank5_rejected.npy": npy((1, 1, 1, 1, 2), "|i1", [1, 2]),
        "truncated.npy": npy((4, 4), "<i2", [1] * 16)[:-5],
    }
    for name, data in seeds.items():
        with open("%s/%s" % (d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
