"""Where a run writes: a work folder inside the output folder, swapped in at the end.

A run (``simulate`` or ``sweep``) never plays straight into its output folder
DIR. It writes into ``DIR/.barrage-work/``: each game's record (and log) the
moment the game is over, so an interrupted or crashed run keeps every game it
finished and ``--resume`` goes on from there without playing them again. When
the last game is in and the summary written, ``publish`` moves the files into
DIR. Until then DIR keeps the previous run's results whole.

A run lists the files it published in ``DIR/.barrage-files.json``. The next
run into DIR removes only files of that list that it does not write again (a
longer earlier run's extra games); a file no run wrote is never touched, and
neither is a folder that still holds one.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Any, TextIO

WORK = ".barrage-work"
MANIFEST = ".barrage-files.json"
SETTINGS = "run.json"
OWNER = "owner.json"
TIMING = "timing"  # per-game wall-clock figures, kept for the run's timing.json
PRIVATE = (SETTINGS, OWNER, TIMING)  # work-folder entries that are not results


class RunError(Exception):
    """A run cannot start or go on; the message is one line for the player."""


def dumps(data: Any) -> str:
    """The JSON text of every result file: sorted keys, one space indent."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Created with "x" rather than mkstemp so that the file gets the umask's usual
    # permissions, like any file the player writes.
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def _safe_relative(text: Any) -> str | None:
    """A manifest entry as a plain relative path inside DIR, or None if it is not one."""
    if not isinstance(text, str) or not text or "\\" in text:
        return None
    path = PurePosixPath(text)
    if path.is_absolute() or any(part in ("", ".", "..") for part in path.parts):
        return None
    return str(path)


def _json_equal(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


class WorkFolder:
    """The work folder of one run into ``out`` (see the module text)."""

    def __init__(self, out: str | Path) -> None:
        self.out = Path(out)
        self.path = self.out / WORK

    # -- start and end ------------------------------------------------------------

    @contextmanager
    def opened(
        self, settings: dict[str, Any], resume: bool = False, notice: TextIO | None = None
    ) -> Iterator[WorkFolder]:
        """Take the folder for this run (fresh, or the interrupted one with ``resume``).

        Leaving the block frees it for the next run; the games played stay
        there unless ``publish`` moved them out.
        """
        self._start(_json_equal(settings), resume, notice)
        try:
            yield self
        finally:
            (self.path / OWNER).unlink(missing_ok=True)

    def _start(self, settings: dict[str, Any], resume: bool, notice: TextIO | None) -> None:
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"{self.out}: cannot make the output folder: {exc.strerror}") from None
        owner = self._read(self.path / OWNER)
        if (
            isinstance(owner, dict)
            and owner.get("host") == socket.gethostname()
            and isinstance(owner.get("pid"), int)
            and owner["pid"] != os.getpid()
            and _process_alive(owner["pid"])
        ):
            raise RunError(
                f"{self.out}: another run (process {owner['pid']}) is writing into this folder; "
                f"wait for it to end (if none is going on, remove {self.path / OWNER})"
            )
        for stale in self.out.glob(f".{MANIFEST}.*.tmp"):
            stale.unlink()  # a list of files cut short by a killed run
        if resume:
            before = self._read(self.path / SETTINGS)
            if not isinstance(before, dict):
                raise RunError(
                    f"{self.out}: there is no interrupted run to resume here; run without --resume"
                )
            keys = set(before) | set(settings)
            changed = sorted(k for k in keys if before.get(k) != settings.get(k))
            if changed:
                raise RunError(
                    f"{self.out}: the interrupted run had other settings ({', '.join(changed)} "
                    "differ); resume with the same settings, or run without --resume to start "
                    "afresh"
                )
            for stale in self.path.rglob("*.tmp"):
                stale.unlink()  # a write cut short by the interruption
        else:
            if self.path.exists():
                left = sum(1 for _ in self.path.rglob("game-*.json")) - sum(
                    1 for _ in self.path.rglob("game-*.log.json")
                )
                shutil.rmtree(self.path)
                if notice is not None and left > 0:
                    notice.write(
                        f"removed the {left} games of an unfinished run from {self.path} "
                        "(--resume continues such a run)\n"
                    )
            self.path.mkdir()
            write_atomically(self.path / SETTINGS, dumps(settings))
        write_atomically(
            self.path / OWNER, dumps({"pid": os.getpid(), "host": socket.gethostname()})
        )

    @staticmethod
    def _read(path: Path) -> Any:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    # -- results ------------------------------------------------------------------

    def write(self, relative: str, text: str) -> Path:
        """Write a result file (published at the end) into the work folder."""
        path = self.path / relative
        write_atomically(path, text)
        return path

    def read(self, relative: str) -> Any:
        """A JSON file of the work folder, or None when it is missing or damaged."""
        return self._read(self.path / relative)

    def publish(self) -> list[str]:
        """Move every result into the output folder; return their paths relative to it."""
        files = sorted(
            p.relative_to(self.path).as_posix()
            for p in self.path.rglob("*")
            if p.is_file() and p.relative_to(self.path).parts[0] not in PRIVATE
        )
        earlier = self._manifest()
        # Listed first, so that a publish cut short still knows every file it moved.
        write_atomically(self.out / MANIFEST, dumps(sorted(set(earlier) | set(files))))
        for rel in files:
            target = self.out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.path / rel, target)
        self._remove(sorted(set(earlier) - set(files)))
        write_atomically(self.out / MANIFEST, dumps(files))
        shutil.rmtree(self.path)
        return files

    def _manifest(self) -> list[str]:
        listed = self._read(self.out / MANIFEST)
        if not isinstance(listed, list):
            return []
        return [rel for rel in map(_safe_relative, listed) if rel is not None]

    def _remove(self, relatives: Iterable[str]) -> None:
        """Remove an earlier run's files, then the folders they leave empty."""
        folders: set[Path] = set()
        for rel in relatives:
            path = self.out / rel
            if path.is_file() and not path.is_symlink():
                path.unlink()
                folders.update(p for p in path.parents if self.out in p.parents)
        for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
            with contextlib.suppress(OSError):  # not empty: it holds files no run wrote
                folder.rmdir()
