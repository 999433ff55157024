"""Datasets: where they come from, where they are found, and how their original formats load."""

from trustmh.data.registry import DataFile, DatasetSpec, get_dataset, list_datasets, resolve_file

__all__ = ["DataFile", "DatasetSpec", "get_dataset", "list_datasets", "resolve_file"]
