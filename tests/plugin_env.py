"""A throwaway environment for plugin packages made by ``bourre new``: a venv whose
interpreter sees this environment's packages (bourre among them) and nothing of the
new packages until they are installed there, with ``pip install -e``."""

from __future__ import annotations

import os
import site
import subprocess
import sys
from pathlib import Path


class PluginEnv:
    """A venv at ``root``: ``install(path)`` a package editable, ``run(...)`` in it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        subprocess.run(
            [sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120
        )
        self.python = root / "bin" / "python"
        purelib = subprocess.run(
            [str(self.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        # this environment's site directories (their .pth files too: an editable bourre)
        dirs = [
            d for d in (*site.getsitepackages(), site.getusersitepackages()) if Path(d).is_dir()
        ]
        lines = "; ".join(f"site.addsitedir({d!r})" for d in dirs)
        Path(purelib, "_bourre_parent.pth").write_text(f"import site; {lines}\n", encoding="utf-8")

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        env.update(COLUMNS="200", NO_COLOR="1", TERM="dumb")
        return env

    def install(self, package: Path) -> None:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "--python",
                str(self.python),
                "install",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "--disable-pip-version-check",
                "-e",
                str(package),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env=self.env(),
        )
        assert proc.returncode == 0, f"pip install failed:\n{proc.stdout}\n{proc.stderr}"

    def run(
        self, *args: str, cwd: Path | None = None, timeout: float = 300
    ) -> subprocess.CompletedProcess[str]:
        """``python ARGS`` in the venv (``-m bourre.cli …`` is the ``bourre`` command)."""
        return subprocess.run(
            [str(self.python), *args],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=self.env(),
            timeout=timeout,
        )
