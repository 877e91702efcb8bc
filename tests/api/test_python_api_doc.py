"""Every ```python example of docs/python-api.md runs as written (the
SimpleEngine one starts the `vireo` command, as a user's would)."""
import re

import pytest
from conftest import REPO, gui_path

DOC = REPO / "docs" / "python-api.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)


def test_the_page_has_its_examples():
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_runs(number, monkeypatch, capsys):
    monkeypatch.setenv("PATH", gui_path())
    exec(compile(EXAMPLES[number], f"{DOC.name} example {number + 1}", "exec"), {})
    printed = capsys.readouterr().out
    assert "print(" not in EXAMPLES[number] or printed.strip()
