"""Measured links: hopsim's link-trace format, a converter for MIT Roofnet's probe traces,
and the per-link fit of the Gilbert-Elliott model (docs/models.md 23) with its check on
held-out data."""

from .fit import GilbertFit, fit_link, held_out_report
from .trace import LinkSeries, read_trace, write_trace

__all__ = ["GilbertFit", "LinkSeries", "fit_link", "held_out_report", "read_trace", "write_trace"]
