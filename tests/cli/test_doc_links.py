#!/usr/bin/python3
"""Every relative link and image of README.md and docs/**/*.md names a file or directory of the
repository (resolved from the document's own directory, as a Markdown viewer resolves it); a link
to a heading of another document names a heading that document has. Links with a scheme (https:,
mailto:) and links inside code spans or code blocks are not checked."""
import glob
import os
import re
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    """GitHub-style anchors of a document's headings."""
    out = set()
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        out.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return out


bad = []
docs = [os.path.join(top, "README.md")] + sorted(glob.glob(os.path.join(top, "docs", "**", "*.md"), recursive=True))
for doc in docs:
    in_code = False
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(doc), path))
            where = f"{os.path.relpath(doc, top)}:{n}: {target}"
            if not full.startswith(top + os.sep) or not os.path.exists(full):
                bad.append(f"{where}: no such file")
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                bad.append(f"{where}: no heading '{anchor}' in {os.path.relpath(full, top)}")
if bad:
    print("\n".join("FAIL: " + b for b in bad))
    sys.exit(1)
print(f"ok: the relative links of {len(docs)} documents")
