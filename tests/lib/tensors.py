"""tensors: .npy files and the convolutions, for the tests, with Python's standard library
alone (no numpy), written from the definitions and sharing nothing with sagen's C code.

    npy_bytes(shape, descr, vals, major=1, fortran=False)   the bytes of an .npy file
    write_npy(path, shape, vals, descr, major=1, fortran=False, cut=0)   them, less CUT bytes
    read_npy(path)                  (shape, values, descr) of a C-order file
    conv2d(x, xs, w, ws, stride, padding, dilation)           (shape of y, y)
    conv2d_grads(x, xs, w, ws, dy, stride, padding, dilation) (dx, dw)

Tensors are flat lists in C order (NCHW, KCRS); stride, padding and dilation are (h, w) pairs.
From the shell: `python3 tests/lib/tensors.py read FILE [DESCR]` prints the shape, then the
values, each on one line, space separated; with DESCR (e.g. '<i4') it fails on another dtype.
"""
import ast
import struct
import sys

CODES = {"i1": "b", "u1": "B", "b1": "?", "i2": "h", "u2": "H", "i4": "i", "u4": "I",
         "i8": "q", "u8": "Q", "f2": "e", "f4": "f", "f8": "d"}


def npy_bytes(shape, descr, vals, major=1, fortran=False):
    """An .npy file of format MAJOR.0: the header padded so the data starts on 64 bytes."""
    shp = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    hdr = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (descr, fortran, shp)
    pre = 10 if major == 1 else 12
    hdr += " " * ((64 - (pre + len(hdr) + 1) % 64) % 64) + "\n"
    order = ">" if descr[0] == ">" else "<"
    return (b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<H" if major == 1 else "<I", len(hdr))
            + hdr.encode("latin-1" if major < 3 else "utf-8")
            + struct.pack(order + "%d%s" % (len(vals), CODES[descr[1:]]), *vals))


def write_npy(path, shape, vals, descr, major=1, fortran=False, cut=0):
    b = npy_bytes(shape, descr, vals, major, fortran)
    with open(path, "wb") as f:
        f.write(b[:len(b) - cut])


def read_npy(path):
    with open(path, "rb") as f:
        b = f.read()
    assert b[:6] == b"\x93NUMPY", path
    major = b[6]
    pre = 10 if major == 1 else 12
    hl = struct.unpack("<H" if major == 1 else "<I", b[8:pre])[0]
    h = ast.literal_eval(b[pre:pre + hl].decode("latin-1" if major < 3 else "utf-8"))
    assert not h["fortran_order"], path
    descr = h["descr"]
    n = 1
    for s in h["shape"]:
        n *= s
    fmt = (">" if descr[0] == ">" else "<") + "%d%s" % (n, CODES[descr[1:]])
    vals = struct.unpack(fmt, b[pre + hl:pre + hl + struct.calcsize(fmt)])
    return list(h["shape"]), list(vals), descr


def _taps(xs, ws, stride, padding, dilation):
    """Every (n, k, oy, ox, c, r, s, iy, ix) of the layer whose input position lies inside x."""
    N, C, H, W = xs
    K, _, R, S = ws
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    OH = (H + 2 * ph - dh * (R - 1) - 1) // sh + 1
    OW = (W + 2 * pw - dw * (S - 1) - 1) // sw + 1
    for n in range(N):
        for k in range(K):
            for oy in range(OH):
                for ox in range(OW):
                    for c in range(C):
                        for r in range(R):
                            for s in range(S):
                                iy, ix = oy * sh - ph + r * dh, ox * sw - pw + s * dw
                                if 0 <= iy < H and 0 <= ix < W:
                                    yield n, k, oy, ox, c, r, s, iy, ix


def out_shape(xs, ws, stride, padding, dilation):
    N, _, H, W = xs
    K, _, R, S = ws
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    return [N, K, (H + 2 * ph - dh * (R - 1) - 1) // sh + 1,
            (W + 2 * pw - dw * (S - 1) - 1) // sw + 1]


def conv2d(x, xs, w, ws, stride=(1, 1), padding=(0, 0), dilation=(1, 1)):
    """y = conv2d(x, w) as PyTorch defines it (groups 1), exact in Python's integers."""
    ys = out_shape(xs, ws, stride, padding, dilation)
    _, K, OH, OW = ys
    C, H, W = xs[1:]
    R, S = ws[2:]
    y = [0] * (ys[0] * K * OH * OW)
    for n, k, oy, ox, c, r, s, iy, ix in _taps(xs, ws, stride, padding, dilation):
        y[((n * K + k) * OH + oy) * OW + ox] += (x[((n * C + c) * H + iy) * W + ix]
                                                 * w[((k * C + c) * R + r) * S + s])
    return ys, y


def conv2d_grads(x, xs, w, ws, dy, stride=(1, 1), padding=(0, 0), dilation=(1, 1)):
    """dx and dw of y = conv2d(x, w) for the output gradient DY: each product of the forward
    definition sends dy times the other operand back to the element it came from."""
    _, K, OH, OW = out_shape(xs, ws, stride, padding, dilation)
    C, H, W = xs[1:]
    R, S = ws[2:]
    dx = [0] * len(x)
    dw = [0] * len(w)
    for n, k, oy, ox, c, r, s, iy, ix in _taps(xs, ws, stride, padding, dilation):
        g = dy[((n * K + k) * OH + oy) * OW + ox]
        dx[((n * C + c) * H + iy) * W + ix] += g * w[((k * C + c) * R + r) * S + s]
        dw[((k * C + c) * R + r) * S + s] += g * x[((n * C + c) * H + iy) * W + ix]
    return dx, dw


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[1] != "read":
        sys.exit("usage: tensors.py read FILE.npy [DESCR]")
    shape, vals, descr = read_npy(sys.argv[2])
    if len(sys.argv) == 4 and descr != sys.argv[3]:
        sys.exit("%s: dtype '%s', expected '%s'" % (sys.argv[2], descr, sys.argv[3]))
    print(" ".join(map(str, shape)))
    print(" ".join(map(str, vals)))
