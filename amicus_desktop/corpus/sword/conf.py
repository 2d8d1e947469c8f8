"""Finding installed SWORD modules and reading their ``.conf`` files.

A SWORD library is a folder with ``mods.d/*.conf`` and the ``modules/`` tree the confs point to
(``DataPath=``, relative to the library). Debian's ``sword-*`` packages install into
``/usr/share/sword``. ``AMICUS_SWORD_PATH`` (or SWORD's own ``SWORD_PATH``) names other libraries,
separated by the path separator; they are searched first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_LIBRARIES = ("/usr/share/sword", "/usr/local/share/sword")
ENV_VARS = ("AMICUS_SWORD_PATH", "SWORD_PATH")


class ModuleNotInstalled(FileNotFoundError):
    """A SWORD module the build needs is not installed."""

    def __init__(self, name: str, searched: list[Path], package: str | None = None) -> None:
        hint = f" Install it with: apt-get install {package}." if package else ""
        where = ", ".join(str(p) for p in searched) or "(no SWORD library found)"
        super().__init__(f"The SWORD module {name} is not installed (searched {where}).{hint}")
        self.name = name


@dataclass
class ModuleConf:
    """A module's ``.conf``: its section name and keys (repeated keys keep every value)."""

    name: str
    library: Path
    values: dict[str, list[str]] = field(default_factory=dict)

    def get(self, key: str, default: str | None = None) -> str | None:
        vals = self.values.get(key.lower())
        return vals[-1] if vals else default

    @property
    def data_path(self) -> Path:
        raw = (self.get("DataPath") or "").strip()
        return (self.library / raw.lstrip("./").lstrip("/")).resolve() if raw else self.library

    @property
    def driver(self) -> str:
        return (self.get("ModDrv") or "").strip()

    @property
    def source_type(self) -> str:
        """Markup of the entries: OSIS, ThML, GBF, TEI or Plaintext."""
        return (self.get("SourceType") or "Plaintext").strip()

    @property
    def versification(self) -> str:
        return (self.get("Versification") or "KJV").strip()

    @property
    def encoding(self) -> str:
        enc = (self.get("Encoding") or "Latin-1").strip().lower()
        return "utf-8" if enc in ("utf-8", "utf8") else "latin-1"

    @property
    def licence(self) -> str:
        return (self.get("DistributionLicense") or "").strip()

    @property
    def version(self) -> str:
        return (self.get("Version") or "").strip()


def parse_conf(text: str, library: Path) -> ModuleConf:
    name = ""
    values: dict[str, list[str]] = {}
    last_key: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if not name:
            if stripped.startswith("[") and stripped.endswith("]"):
                name = stripped[1:-1].strip()
            continue
        if not stripped or stripped.startswith("#"):
            last_key = None
            continue
        if last_key and values[last_key] and values[last_key][-1].endswith("\\"):
            values[last_key][-1] = values[last_key][-1][:-1] + "\n" + stripped
            continue
        if "=" not in stripped:
            continue
        key, value = stripped.split("=", 1)
        last_key = key.strip().lower()
        values.setdefault(last_key, []).append(value.strip())
    return ModuleConf(name=name, library=library, values=values)


def libraries() -> list[Path]:
    found: list[Path] = []
    for var in ENV_VARS:
        for part in os.environ.get(var, "").split(os.pathsep):
            if part:
                found.append(Path(part))
    found.extend(Path(p) for p in DEFAULT_LIBRARIES)
    seen: list[Path] = []
    for lib in found:
        if lib not in seen and (lib / "mods.d").is_dir():
            seen.append(lib)
    return seen


def find_module(name: str, *, package: str | None = None) -> ModuleConf:
    """The installed module called ``name`` (case-insensitive), or :class:`ModuleNotInstalled`."""
    libs = libraries()
    for lib in libs:
        for conf_path in sorted((lib / "mods.d").glob("*.conf")):
            try:
                conf = parse_conf(conf_path.read_text(encoding="utf-8", errors="replace"), lib)
            except OSError:
                continue
            # zLD DataPaths name a file prefix (``.../dict``), zText/zCom ones a folder.
            data = conf.data_path
            if conf.name.lower() == name.lower() and (data.is_dir() or data.parent.is_dir()):
                return conf
    raise ModuleNotInstalled(name, libs, package)
