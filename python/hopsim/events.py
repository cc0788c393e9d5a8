"""The event trace of a run: one row per event at every layer (docs/interfaces.md, "Event
trace"). The core streams it to a CSV file while it runs; this module turns that file into
Parquet block by block, so memory stays bounded whatever the run's length.
"""

from __future__ import annotations

import os
from os import PathLike
from pathlib import Path

from ._core import ScenarioError

__all__ = ["TRACE_FORMATS", "check_trace_path", "csv_to_parquet", "partial_path", "schema"]

#: File suffixes the trace can be written as.
TRACE_FORMATS = {".parquet": "Parquet", ".csv": "CSV"}

#: Bytes of CSV converted at a time (the memory the conversion needs, give or take).
BLOCK_BYTES = 16 << 20


def schema():  # -> pyarrow.Schema (pyarrow is imported late: the CLI starts faster)
    """The trace's columns and their types; ids that do not apply are null."""
    import pyarrow as pa

    names = pa.dictionary(pa.int8(), pa.string())
    return pa.schema(
        [
            ("time_s", pa.float64()),
            ("node", pa.uint32()),
            ("layer", names),
            ("event", names),
            ("frame", pa.uint64()),
            ("frame_kind", names),
            ("packet", pa.uint64()),
            ("packet_kind", names),
            ("flow", pa.uint32()),
            ("seq", pa.uint32()),
            ("peer", pa.uint32()),
            ("src", pa.uint32()),
            ("dst", pa.uint32()),
            ("ttl", pa.uint32()),
            ("reason", names),
            ("bytes", pa.uint32()),
            ("value", pa.float64()),
            ("time_ns", pa.int64()),
        ]
    )


def check_trace_path(
    value: str | PathLike[str], key: str = "trace", suffixes: tuple[str, ...] = tuple(TRACE_FORMATS)
) -> Path:
    """The trace file as an absolute path; refuses what cannot be written before a run
    (``suffixes``: the file name endings allowed).

    Raises:
        ScenarioError: naming ``key``, the value and what is allowed.
    """
    if not isinstance(value, (str, PathLike)) or not str(value):
        raise ScenarioError(f"{key} = {value!r}: not allowed, it must be a file path")
    path = Path(value).expanduser().absolute()
    if path.is_dir():
        raise ScenarioError(f"{key} = {str(value)!r}: is a directory; give a file name")
    if path.suffix.lower() not in suffixes:
        raise ScenarioError(
            f"{key} = {str(value)!r}: not allowed, the file name must end in "
            f"{' or '.join(suffixes)}"
        )
    if not path.parent.is_dir():
        raise ScenarioError(
            f"{key} = {str(value)!r}: the folder {str(path.parent)!r} does not exist"
        )
    return path


def partial_path(path: Path) -> Path:
    """Where the core streams the CSV of a trace that ends up at ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}.csv.partial")


def csv_to_parquet(src: Path, dst: Path) -> int:
    """Convert the core's CSV trace to Parquet, block by block; the number of rows."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    target = schema()
    # Read the dictionary columns as strings, then encode each block.
    read_types = {
        f.name: (pa.string() if pa.types.is_dictionary(f.type) else f.type) for f in target
    }
    reader = pacsv.open_csv(
        src,
        read_options=pacsv.ReadOptions(block_size=BLOCK_BYTES),
        convert_options=pacsv.ConvertOptions(
            column_types=read_types, strings_can_be_null=True, include_columns=target.names
        ),
    )
    rows = 0
    with pq.ParquetWriter(dst, target, compression="zstd") as writer:
        for batch in reader:
            table = pa.Table.from_batches([batch]).cast(target)
            writer.write_table(table)
            rows += batch.num_rows
    return rows
