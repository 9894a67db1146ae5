"""The README's Python example runs as written."""

import contextlib
import io
import pathlib

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_example(opencl):
    text = README.read_text()
    start = text.index("```python", text.index("## silt from Python")) + len("```python\n")
    code = text[start:text.index("```", start)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert "kernel `sqrt` does not support dtype i64" in out.getvalue()
