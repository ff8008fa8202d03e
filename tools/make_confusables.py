"""Write ``mantis/table/confusables.txt``: the Unicode data the seat names are compared by.

    .venv/bin/python tools/make_confusables.py confusables.txt DerivedCoreProperties.txt

Both inputs are Unicode's own files, of one version:
https://www.unicode.org/Public/security/<version>/confusables.txt (UTS #39) and
https://www.unicode.org/Public/<version>/ucd/DerivedCoreProperties.txt.  The
output keeps what the UTS #39 skeleton needs and nothing else: every
confusable's prototype, and the Default_Ignorable_Code_Point ranges (code
points that show as nothing, the Hangul fillers among them).  Its header
names the version, the files' dates and their SHA-256, so anyone can check
the shipped table against Unicode's.
"""

from __future__ import annotations

import argparse
import hashlib
import re
from pathlib import Path

OUTPUT = Path(__file__).resolve().parents[1] / "mantis" / "table" / "confusables.txt"


def _about(text: str, label: str) -> tuple[str, str]:
    """The version and date a Unicode data file says it is."""
    version = re.search(r"^# Version: (\S+)", text, re.M)
    named = re.search(r"^# \S+?-(\d+\.\d+\.\d+)\.txt", text, re.M)
    date = re.search(r"^# Date: ([^,\n]+)", text, re.M)
    found = version.group(1) if version else named.group(1) if named else None
    if found is None or date is None:
        raise SystemExit(f"{label}: no version or date in its header")
    return found, date.group(1)


def prototypes(text: str) -> list[tuple[int, tuple[int, ...]]]:
    """``confusables.txt``'s lines: each source code point and its prototype's code points."""
    found = []
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, _kind = (field.strip() for field in data.split(";"))
        found.append((int(source, 16), tuple(int(c, 16) for c in target.split())))
    return found


def ignorables(text: str) -> list[tuple[int, int]]:
    """The Default_Ignorable_Code_Point ranges of ``DerivedCoreProperties.txt``."""
    ranges = []
    for line in text.splitlines():
        data = line.split("#", 1)[0]
        if ";" not in data:
            continue
        points, prop = (field.strip() for field in data.split(";", 1))
        if prop != "Default_Ignorable_Code_Point":
            continue
        first, _, last = points.partition("..")
        ranges.append((int(first, 16), int(last or first, 16)))
    return ranges


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("confusables", type=Path, help="Unicode's confusables.txt")
    parser.add_argument("derived", type=Path, help="Unicode's DerivedCoreProperties.txt")
    args = parser.parse_args()
    confusables = args.confusables.read_bytes()
    derived = args.derived.read_bytes()
    c_version, c_date = _about(confusables.decode(), "confusables.txt")
    d_version, d_date = _about(derived.decode(), "DerivedCoreProperties.txt")
    if c_version != d_version:
        raise SystemExit(f"versions differ: {c_version} and {d_version}")
    mapping = prototypes(confusables.decode())
    blanks = ignorables(derived.decode())
    c_sum, d_sum = hashlib.sha256(confusables).hexdigest(), hashlib.sha256(derived).hexdigest()
    lines = [
        f"# Unicode {c_version}: the UTS #39 skeleton's data, written by tools/make_confusables.py",
        f"# from confusables.txt ({c_date}, sha256 {c_sum})",
        f"# and DerivedCoreProperties.txt ({d_date}, sha256 {d_sum}).",
        "# Do not edit: run the script on a newer version's files instead.",
        "# I FIRST LAST: a Default_Ignorable_Code_Point range.",
        "# C SOURCE PROTOTYPE...: a confusable and its prototype.",
        f"version {c_version}",
    ]
    lines += [f"I {first:04X} {last:04X}" for first, last in blanks]
    lines += [f"C {s:04X} {' '.join(f'{c:04X}' for c in t)}" for s, t in mapping]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUTPUT}: {len(mapping)} confusables, {len(blanks)} ignorable ranges ({c_version})")


if __name__ == "__main__":
    main()
