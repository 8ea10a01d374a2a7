#!/usr/bin/env python3
"""check_png.py PROBES.json -- check pixels of Chromium screenshots.

PROBES.json (written by pictures.lua) lists screenshots and, for each, the
pixels to look at: {"x", "y", "rgb": "#rrggbb"} must be that colour, or
{"x", "y", "not": "#rrggbb"} must not be; "what" says why.  Only the
standard library: PNG is decoded here (zlib inflate, the five row
filters, 8-bit RGB/RGBA, not interlaced -- what Chromium writes).
"""
import json
import os
import struct
import sys
import zlib

TOLERANCE = 6  # per channel: anti-aliasing and colour management


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour "
                         f"type {color}, interlace {interlace})")
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        base = y * (stride + 1)
        kind, line = raw[base], bytearray(raw[base + 1:base + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


def rgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def close(a, b):
    return all(abs(p - q) <= TOLERANCE for p, q in zip(a, b))


def main(probes_path):
    with open(probes_path) as f:
        shots = json.load(f)
    base, failures, n = os.path.dirname(probes_path), 0, 0
    for shot in shots:
        width, height, pixel = read_png(os.path.join(base, shot["png"]))
        for check in shot["checks"]:
            n += 1
            x, y = check["x"], check["y"]
            got = pixel(x, y) if 0 <= x < width and 0 <= y < height else None
            want = check.get("rgb") or check.get("not")
            ok = got is not None and close(got, rgb(want)) == ("rgb" in check)
            if not ok:
                failures += 1
                seen = "outside" if got is None else "#%02x%02x%02x" % got
                print(f"FAIL {shot['png']} ({x},{y}) {check['what']}: "
                      f"{'want' if 'rgb' in check else 'not'} {want}, "
                      f"got {seen}")
    print(f"{n - failures}/{n} pixel checks passed in {len(shots)} "
          f"screenshots")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
