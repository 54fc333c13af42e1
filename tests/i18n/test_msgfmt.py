"""GNU gettext's own check of every catalogue (issue 42, item 10): ``msgfmt -c`` reads each
.po as any gettext tool or translator's editor would, and must find nothing wrong: no
entry whose msgid and msgstr differ in a final newline, no {placeholder} of the English
missing or added (python-brace-format), no %-format check on a text that is not one
(scripts/catalogue_flags.py), a plural header each language's tools accept."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "attention_ui" / "i18n" / "locale"
MSGFMT = shutil.which("msgfmt")


@pytest.mark.skipif(MSGFMT is None, reason="no msgfmt: apt-get install gettext (.ci/run does)")
@pytest.mark.parametrize("lang", ["es", "fr", "de", "zh"])
def test_msgfmt_finds_nothing_wrong(lang: str) -> None:
    po = LOCALE / lang / "LC_MESSAGES" / "messages.po"
    run = subprocess.run([MSGFMT, "-c", "-o", "/dev/null", str(po)], capture_output=True,
                         text=True, check=False)  # fmt: skip
    errors = [line for line in run.stderr.splitlines() if "warning:" not in line]
    assert run.returncode == 0 and not errors, "\n".join(errors[:20])
