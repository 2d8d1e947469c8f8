"""The installed sources the corpus is built from: SWORD modules (opened lazily and once) and a
few plain data files that Debian packages install."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from .sword import ModuleConf, ZLDModule, ZVerseModule, find_module, get_versification


@dataclass(frozen=True)
class ModuleSpec:
    key: str          # our name
    module: str       # SWORD module name (the .conf section)
    package: str      # Debian package that installs it
    title: str
    licence: str = "Public Domain"


MODULES: dict[str, ModuleSpec] = {
    spec.key: spec
    for spec in (
        ModuleSpec("web", "engWEB2015eb", "sword-text-web", "World English Bible (2015 edition, with Strong's tags)"),
        ModuleSpec("kjv", "engKJV2006eb", "sword-text-kjv", "King James Version (1769 text, 2006 edition)"),
        ModuleSpec("mhcc", "MHCC", "sword-comm-mhcc", "Matthew Henry's Concise Commentary on the Whole Bible"),
        ModuleSpec("scofield", "Scofield", "sword-comm-scofield", "Scofield Reference Notes (1917 edition)"),
        ModuleSpec("tdavid", "TDavid", "sword-comm-tdavid", "C. H. Spurgeon's Treasury of David"),
        ModuleSpec("greek", "StrongsGreek", "sword-dict-strongs-greek", "Strong's Greek Dictionary of Bible Words"),
        ModuleSpec("hebrew", "StrongsHebrew", "sword-dict-strongs-hebrew", "Strong's Hebrew Bible Dictionary"),
        ModuleSpec("nave", "Nave", "sword-dict-naves", "Nave's Topical Bible"),
    )
}


@dataclass(frozen=True)
class DataFileSpec:
    """A source that is a plain file rather than a SWORD module, and the package installing it."""

    key: str
    paths: tuple[str, ...]  # where packages install it, first found wins
    package: str
    title: str
    licence: str = "Public Domain"

    @property
    def module(self) -> str:
        """The name ``db_meta.corpus_sources`` gives it (the file's name)."""
        return Path(self.paths[0]).name


DATA_FILES: dict[str, DataFileSpec] = {
    spec.key: spec
    for spec in (
        DataFileSpec(
            "abbott-smith",
            ("/usr/share/bibledit/sources/abbott-smith/abbott-smith.tei_lemma.xml",
             "/usr/local/share/bibledit/sources/abbott-smith/abbott-smith.tei_lemma.xml"),
            "bibledit-data",
            "G. Abbott-Smith, A Manual Greek Lexicon of the New Testament (1922), TEI edition",
        ),
    )
}


class DataFileNotInstalled(FileNotFoundError):
    """A data file the build needs is not installed."""

    def __init__(self, spec: DataFileSpec) -> None:
        super().__init__(
            f"{spec.title} is not installed (looked for {', '.join(spec.paths)}). "
            f"Install it with: apt-get install {spec.package}."
        )
        self.spec = spec


def describe_sources() -> str:
    """Every source of a build, for ``db_meta.corpus_sources``: name (title; licence), …"""
    specs: list[ModuleSpec | DataFileSpec] = [*MODULES.values(), *DATA_FILES.values()]
    return ", ".join(f"{spec.module} ({spec.title}; {spec.licence})" for spec in specs)


class Library:
    """Opens each module on first use (thread-safe); ``conf(key)`` gives its ``.conf``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._verses: dict[str, ZVerseModule] = {}
        self._dictionaries: dict[str, ZLDModule] = {}
        self._confs: dict[str, ModuleConf] = {}

    def conf(self, key: str) -> ModuleConf:
        spec = MODULES[key]
        with self._lock:
            if key not in self._confs:
                self._confs[key] = find_module(spec.module, package=spec.package)
            return self._confs[key]

    def verse_module(self, key: str) -> ZVerseModule:
        conf = self.conf(key)
        with self._lock:
            if key not in self._verses:
                self._verses[key] = ZVerseModule(
                    conf.data_path, get_versification(conf.versification), encoding=conf.encoding
                )
            return self._verses[key]

    def dictionary(self, key: str) -> ZLDModule:
        conf = self.conf(key)
        with self._lock:
            if key not in self._dictionaries:
                # Some confs omit Encoding although the data is UTF-8: the reader sniffs it.
                self._dictionaries[key] = ZLDModule(conf.data_path, encoding=conf.encoding)
            return self._dictionaries[key]

    def data_file(self, key: str) -> Path:
        """Where the data file ``key`` of :data:`DATA_FILES` is installed, or
        :class:`DataFileNotInstalled`."""
        spec = DATA_FILES[key]
        for candidate in spec.paths:
            path = Path(candidate)
            if path.is_file():
                return path
        raise DataFileNotInstalled(spec)

    def check(self) -> list[str]:
        """Messages for every module or data file that is missing (empty when all are installed)."""
        missing = []
        for key in MODULES:
            try:
                self.conf(key)
            except FileNotFoundError as exc:
                missing.append(str(exc))
        for key in DATA_FILES:
            try:
                self.data_file(key)
            except FileNotFoundError as exc:
                missing.append(str(exc))
        return missing
