"""Command-line values without pydantic at start-up.

typer (0.2x) turns each parameter's value into its Python type with a pydantic TypeAdapter,
built the first time the parameter is processed (typer.core._TyperParameter.get_runtime_param)
and so for every parameter of the command run, even one left out (value None). Importing
pydantic and building the adapters is about half of what `hopsim run FILE` costs before the
simulation starts. What hopsim's commands mostly take needs no pydantic:

- a value left out (None): typer's RuntimeParam.coerce answers None or () before it asks the
  adapter, so the adapter is built only when a value arrives (lazily);
- a ``str`` from the command line is that string (typer's _parse_cli_str returns it);
- an ``int`` or ``float`` default of that very type, without bounds, is itself;
- a ``list[str]`` (a repeated option) is the list of those strings;
- a ``pathlib.Path`` is ``Path(value)`` (what pydantic's lax Path validation does), checked
  by typer's own coerce_cli_path; when that check fails, typer's adapter runs instead and
  reports the error in its own words.

Anything else (numbers, choices, parsers, path options with a path_type, bytes) goes to
typer's adapter, unchanged. tests/test_cli_startup.py compares both on every parameter of
the command line. With a typer without this machinery (older versions use click's types and
no pydantic) :func:`install` does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


def install() -> bool:
    """Give typer's parameters the lazy coercion; False when this typer has no such hook."""
    try:
        from typer import BadParameter, _coercion, core
        from typer._param_types import coerce_cli_path
    except ImportError:
        return False
    param_cls = getattr(core, "_TyperParameter", None)
    base = getattr(_coercion, "RuntimeParam", None)
    build = getattr(_coercion, "build_runtime_param", None)
    if param_cls is None or base is None or build is None:
        return False
    if not hasattr(param_cls, "get_runtime_param"):
        return False
    if getattr(param_cls, "_hopsim_lazy_coercion", False):
        return True

    @dataclass(frozen=True)
    class LazyRuntimeParam(base):  # type: ignore[misc, valid-type]
        """typer's coercion of one parameter, its adapter built on the first value that
        needs it (base.coerce handles None before calling _coerce_value)."""

        descriptor: Any

        def _typer(self) -> Any:
            """typer's own RuntimeParam of this parameter, built once."""
            built = self.__dict__.get("_built")
            if built is None:
                built = build(self.descriptor)
                object.__setattr__(self, "_built", built)  # a cache, not a field
            return built

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            info = self.parameter_info
            kind = self.annotation
            if self.descriptor.file_annotation is None and info.parser is None:
                if kind is str and type(value) is str:
                    return value
                if (
                    kind in (int, float)
                    and type(value) is kind
                    and info.min is None
                    and info.max is None
                    and not info.clamp
                ):
                    return value  # a default (the command line gives strings)
                if (
                    getattr(kind, "__origin__", None) is list
                    and getattr(kind, "__args__", None) == (str,)
                    and isinstance(value, (list, tuple))
                    and all(type(item) is str for item in value)
                ):
                    return list(value)
                if kind is Path and info.path_type is None and type(value) is str:
                    try:
                        return coerce_cli_path(
                            Path(value), info, path_type=Path, param=param, ctx=ctx
                        )
                    except BadParameter:
                        pass  # typer's adapter reports it, naming the value as given
            return self._typer()._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            desc = self.type_descriptor
            self._runtime_param = LazyRuntimeParam(
                parameter_info=desc.parameter_info,
                annotation=desc.annotation,
                descriptor=desc,
            )
        return self._runtime_param

    param_cls.get_runtime_param = get_runtime_param
    param_cls._hopsim_lazy_coercion = True
    return True
