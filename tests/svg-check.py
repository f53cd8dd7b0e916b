#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/svg-check.py STACK.SVG VERDICT.JSON VERDICT.TXT

Checks a run's stack.svg (stackov -m -s) against stackov's verdict on the
same dump, and prints one line per problem (exit 1), else a summary (exit
0): the file is well-formed SVG; it draws the verdict's stack (bounds) and
its frame count; every frame is drawn once or named as not drawn; every
frame the verdict's text lists has the bytes the text gives it; each of
the cycle's whole turns has the verdict's bytes per cycle; the blocks
tile the column top down, each as tall as its bytes; the fault is marked
at the verdict's fault address when the guard page was hit; for a crash
that was no overflow, the canary's slot, the exception frame and an
overwritten STACK_END_MAGIC are marked where the verdict puts them.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
BPP = 16  # bytes per pixel, as libstackov/map.c draws


def main(svg_path, json_path, txt_path):
    bad = []
    try:
        root = ET.parse(svg_path).getroot()
    except (ET.ParseError, OSError) as e:
        print("%s is not well-formed XML: %s" % (svg_path, e))
        return 1
    if root.tag != NS + "svg":
        print("the root element is %s, not svg" % root.tag)
        return 1
    v = json.load(open(json_path))
    txt = open(txt_path, encoding="utf-8", errors="replace").read()
    if (root.get("data-lo"), root.get("data-hi")) != (v["lo"], v["hi"]):
        bad.append("it draws %s..%s, the verdict's stack is %s..%s"
                   % (root.get("data-lo"), root.get("data-hi"), v["lo"], v["hi"]))
    if root.get("data-frames") != str(v["frames"]):
        bad.append("it says %s frames, the verdict %s" % (root.get("data-frames"), v["frames"]))
    bytes_of = {}
    for el in list(root.iter(NS + "rect")) + list(root.iter(NS + "metadata")):
        if el.get("data-index") is None:
            continue
        i = int(el.get("data-index"))
        if i in bytes_of:
            bad.append("frame #%d is drawn twice" % i)
        bytes_of[i] = int(el.get("data-bytes"))
    missing = sorted(set(range(v["frames"])) - set(bytes_of))
    if missing:
        bad.append("frames neither drawn nor named: %s" % missing[:10])
    # The frames the verdict's text lists: "#N  pc name  BYTES bytes [STACK]".
    listed = 0
    for m in re.finditer(r"^    #(\d+) +[0-9a-f]+ \S+ +(\d+ bytes|\?) ", txt, re.M):
        i, b = int(m.group(1)), m.group(2)
        want = -1 if b == "?" else int(b.split()[0])
        listed += 1
        if bytes_of.get(i) != want:
            bad.append("frame #%d: %s bytes in the map, %d in the verdict" % (i, bytes_of.get(i), want))
    if not listed:
        bad.append("the verdict's text lists no frames to compare")
    # The cycle's whole turns (all but the deepest and the last).
    cyc = re.search(r"x(\d+) \((\d+) bytes per cycle\)$", v.get("cycle") or "")
    turns = {}
    for el in root.iter(NS + "rect"):
        t = int(el.get("data-turn") or 0)
        if el.get("class") == "frame" and t:
            turns[t] = turns.get(t, 0) + int(el.get("data-bytes"))
    if cyc:
        reps, per = int(cyc.group(1)), int(cyc.group(2))
        if max(turns or [0]) != reps:
            bad.append("the map has %d turns of the cycle, the verdict %d" % (max(turns or [0]), reps))
        for t in range(2, reps):
            if turns.get(t) != per:
                bad.append("turn %d of the cycle: %s bytes, the verdict %d per cycle" % (t, turns.get(t), per))
    elif turns:
        bad.append("the map has turns of a cycle, the verdict none")
    # The blocks: top down, each as tall as its bytes, none overlapping.
    blocks = sorted((float(el.get("y")), float(el.get("height")), int(el.get("data-bytes")), el.get("class"))
                    for el in root.iter(NS + "rect") if el.get("data-bytes") is not None)
    for (y, h, b, c), nxt in zip(blocks, blocks[1:] + [None]):
        if abs(h - b / BPP) > 0.01:
            bad.append("a %s block of %d bytes is %.3f px tall, not %.3f" % (c, b, h, b / BPP))
        if nxt and c != "guard" and nxt[3] != "guard" and y + h > nxt[0] + 0.01:
            bad.append("a %s block at y %.3f overlaps the next (%s at %.3f)" % (c, y, nxt[3], nxt[0]))
    # A crash that was no overflow: its marks where the verdict puts them.
    marks = {el.get("data-what"): el.get("data-addr") for el in root.iter(NS + "line") if el.get("class") == "mark"}
    if v.get("kind"):
        want = {}
        if v.get("slot"):
            want["canary, overwritten" if v["slot_value"] != v["canary"] else "canary"] = v["slot"]
        if v.get("regs"):
            want["exception frame (pt_regs)"] = v["regs"]
        if v.get("end_magic") == "overwritten":
            want["STACK_END_MAGIC, overwritten"] = v["lo"]
        if marks != want:
            bad.append("the marks are %s, the verdict's %s" % (marks, want))
    elif marks:
        bad.append("an overflow's map with a crash's marks: %s" % marks)
    faults = [el.get("data-addr") for el in root.iter(NS + "line") if el.get("class") == "fault"]
    if v.get("guard_hit") and faults != [v["fault"]]:
        bad.append("the fault is marked at %s, the verdict's is %s" % (faults, v["fault"]))
    for b in bad:
        print(b)
    if not bad:
        print("%d frames (%d drawn), %d listed frames' bytes, %d turns, the fault at %s%s"
              % (v["frames"], sum(1 for e in root.iter(NS + "rect") if e.get("class") == "frame"),
                 listed, max(turns or [0]), faults[0] if faults else "none",
                 "".join(", %s at %s" % kv for kv in sorted(marks.items()))))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    sys.exit(main(*sys.argv[1:]))
