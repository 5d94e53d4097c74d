#!/usr/bin/env python3
"""Screendumps for Tools/kms-test: take one over QMP, compare two PPM images.

  kms-screen.py dump QMP_SOCKET OUT.ppm [DEVICE]
                                               QMP screendump of the guest's scan-out (of the
                                               display device with that id, head 0)
  kms-screen.py compare A.ppm B.ppm [--mask-rows Y0 Y1]
                                               exit 0 when every pixel (outside rows Y0..Y1) is equal
  kms-screen.py differs A.ppm B.ppm --rows Y0 Y1
                                               exit 0 when some pixel in rows Y0..Y1 differs
Standard library only.
"""
import json
import os
import socket
import sys
import time


def qmp_screendump(path, out, device=None):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(path)
    f = s.makefile("rw")
    json.loads(f.readline())  # greeting

    def command(name, arguments=None):
        message = {"execute": name}
        if arguments:
            message["arguments"] = arguments
        f.write(json.dumps(message) + "\n")
        f.flush()
        while True:
            reply = json.loads(f.readline())
            if "return" in reply or "error" in reply:
                return reply

    command("qmp_capabilities")
    if os.path.exists(out):
        os.remove(out)
    arguments = {"filename": out}
    if device:
        arguments.update({"device": device, "head": 0})
    reply = command("screendump", arguments)
    s.close()
    if "error" in reply:
        sys.exit(f"screendump: {reply['error']}")
    for _ in range(100):
        if os.path.exists(out) and os.path.getsize(out) > 0:
            return
        time.sleep(0.05)
    sys.exit("screendump wrote nothing")


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields = []
    i = 0
    while len(fields) < 4:
        while data[i : i + 1].isspace():
            i += 1
        if data[i : i + 1] == b"#":
            while data[i : i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j : j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    i += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        sys.exit(f"{path}: not an 8-bit P6 PPM")
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[i : i + width * height * 3]


def rows_outside(height, mask):
    return [y for y in range(height) if not (mask and mask[0] <= y < mask[1])]


def compare(a, b, mask):
    wa, ha, pa = read_ppm(a)
    wb, hb, pb = read_ppm(b)
    print(f"compared {a} ({wa}x{ha}) with {b} ({wb}x{hb})" + (f", rows {mask[0]}..{mask[1]} masked" if mask else ""))
    if (wa, ha) != (wb, hb):
        print("  sizes differ")
        return 1
    stride = wa * 3
    differing = 0
    first = None
    for y in rows_outside(ha, mask):
        ra, rb = pa[y * stride : (y + 1) * stride], pb[y * stride : (y + 1) * stride]
        if ra == rb:
            continue
        for x in range(wa):
            if ra[x * 3 : x * 3 + 3] != rb[x * 3 : x * 3 + 3]:
                differing += 1
                if first is None:
                    first = (x, y, tuple(ra[x * 3 : x * 3 + 3]), tuple(rb[x * 3 : x * 3 + 3]))
    if differing:
        x, y, ca, cb = first
        print(f"  {differing} pixels differ; first at ({x}, {y}): {ca} vs {cb} (RGB)")
        return 1
    print("  identical")
    return 0


def differs(a, b, rows):
    wa, ha, pa = read_ppm(a)
    wb, hb, pb = read_ppm(b)
    stride = wa * 3
    band_a, band_b = pa[rows[0] * stride : rows[1] * stride], pb[rows[0] * stride : rows[1] * stride]
    changed = sum(1 for i in range(0, len(band_a), 3) if band_a[i : i + 3] != band_b[i : i + 3])
    print(f"compared rows {rows[0]}..{rows[1]} of {a} and {b}: {changed} pixels differ")
    return 0 if changed else 1


def main(argv):
    if len(argv) >= 3 and argv[0] == "dump":
        qmp_screendump(argv[1], os.path.abspath(argv[2]), argv[3] if len(argv) > 3 else None)
        return 0
    if len(argv) >= 3 and argv[0] == "compare":
        mask = None
        if len(argv) == 6 and argv[3] == "--mask-rows":
            mask = (int(argv[4]), int(argv[5]))
        return compare(argv[1], argv[2], mask)
    if len(argv) == 6 and argv[0] == "differs" and argv[3] == "--rows":
        return differs(argv[1], argv[2], (int(argv[4]), int(argv[5])))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
