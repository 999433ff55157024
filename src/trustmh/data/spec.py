"""What a dataset declaration holds (:class:`DatasetSpec`, :class:`DataFile`) and the table
they are registered in.

:mod:`trustmh.data.catalog` declares every dataset here; :mod:`trustmh.data.registry` imports
the catalogue and looks datasets up. Keeping the types apart is what lets the catalogue be
imported by the registry without importing it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ACCESS_CONTROLLED = "access-controlled"


@dataclass(frozen=True)
class DataFile:
    """One upstream file: its name inside the dataset folder, checksum and download URL."""

    name: str
    sha256: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class DatasetSpec:
    """A dataset trustmh can use: provenance, expected files and how to count its rows."""

    name: str
    pillars: tuple[str, ...]
    title: str
    source: tuple[str, ...]
    license: str
    files: tuple[DataFile, ...]
    notes: str = ""
    tags: tuple[str, ...] = field(default=())

    def file(self, name: str) -> DataFile:
        for data_file in self.files:
            if data_file.name == name:
                return data_file
        raise KeyError(f"dataset {self.name!r} has no file {name!r}")


DECLARED: dict[str, DatasetSpec] = {}


def register(spec: DatasetSpec) -> DatasetSpec:
    DECLARED[spec.name] = spec
    return spec
