"""Datasets: where they come from, where they are found, and how their original formats load."""

from trustmh.data.registry import get_dataset, list_datasets, resolve_file
from trustmh.data.spec import DataFile, DatasetSpec

__all__ = ["DataFile", "DatasetSpec", "get_dataset", "list_datasets", "resolve_file"]
