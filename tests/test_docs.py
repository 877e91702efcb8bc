"""The user-facing documents hold together: README.md stays short enough to
read on a few screens, and every relative link in README.md and docs/*.md
reaches a file that exists and, with a #fragment, a heading of that file.
Fast and offline: links to other sites are not followed."""
import re

import pytest
from conftest import REPO

README_MAX_LINES = 250
DOCUMENTS = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"`+[^`]*`+")


def prose_lines(text):
    """The lines outside code blocks (fenced or indented four spaces), with
    inline code removed: a link written inside code is an example, not a link."""
    in_fence = False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or line.startswith("    ") or line.startswith("\t"):
            continue
        yield CODE_SPAN.sub("", line)


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped
    (letters, digits, `_`, `-` and spaces kept), spaces made hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)      # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
    return result


def links(path):
    for line in prose_lines(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            yield match.group(1)


def test_the_slugs_follow_github():
    assert slug("Generation 6 on the ladder") == "generation-6-on-the-ladder"
    assert slug("UCI_Elo calibration") == "uci_elo-calibration"
    assert slug("`vireo match`: games, SPRT (and more)") == "vireo-match-games-sprt-and-more"


def test_readme_fits_on_a_few_screens():
    lines = (REPO / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines, at most {README_MAX_LINES}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_and_anchor_resolves(document):
    broken = []
    for target in links(document):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):          # http:, https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: no heading #{fragment} in {resolved.name}")
    assert not broken, f"{document.name}: " + "; ".join(broken)
