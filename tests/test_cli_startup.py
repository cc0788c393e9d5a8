"""What `hopsim run` loads before it prints (issue 17: a 100 s chain, process start to exit,
under 0.15 s). A structural guard, not a timed one: a run, its --json and validate forms and
the help never import the heavy libraries nor pydantic (typer's coercion, hopsim.cli.coercion),
`hopsim run` imports no other command's module, and rich only to print the summary. The two
devices that make this so are checked against what they replace: the pydantic-free coercion
against typer's adapters on every parameter, the one-command app against the full app's help
and messages."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
import typer.main
from typer.testing import CliRunner

import hopsim.cli
from hopsim.cli import COMMANDS, build_app

ROOT = Path(__file__).resolve().parents[1]
CHAIN = str(ROOT / "scenarios" / "chain-tcp.toml")

#: Libraries no command-line start-up needs: what sweeps, plots, frames and traces use,
#: and pydantic (typer's value coercion, replaced by hopsim.cli.coercion where it needs none).
HEAVY = ("pydantic", "numpy", "polars", "pyarrow", "matplotlib", "dask", "distributed", "pandas")

_PROBE = """
import json, sys
out, sys.argv = sys.argv[1], ["hopsim", *sys.argv[2:]]
import hopsim.cli
try:
    hopsim.cli.main()
    code = 0
except SystemExit as exc:
    code = exc.code
with open(out, "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules)}, f)
"""


def _modules_after(tmp_path: Path, *argv: str) -> set[str]:
    """The modules loaded once ``hopsim ARGV`` has run to its end (exit code 0 checked)."""
    out = tmp_path / "modules.json"
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, str(out), *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert report["code"] in (0, None), (argv, report["code"], proc.stderr)
    return set(report["modules"])


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


@pytest.mark.parametrize(
    "argv",
    [
        ("run", CHAIN),
        ("run", CHAIN, "--json", "--seed", "3", "-s", "topology.hops=7"),
        ("validate", CHAIN),
    ],
    ids=["run", "run-json", "validate"],
)
def test_a_run_loads_no_heavy_library_nor_other_commands(tmp_path: Path, argv: tuple[str, ...]):
    modules = _modules_after(tmp_path, *argv)
    assert "hopsim._core" in modules and "hopsim.cli.run" in modules  # the probe ran it
    assert _heavy(modules) == []
    # rich draws the summary's tables; the JSON document and the TOML are plain text.
    assert ("rich" in modules) == ("--json" not in argv and argv[0] == "run")
    others = {f"hopsim.cli.{m}" for m in COMMANDS.values()} - {"hopsim.cli.run"}
    assert sorted(modules & others) == []


@pytest.mark.parametrize("argv", [("--help",), ("run", "--help"), ("sweep", "--help")])
def test_help_loads_no_heavy_library(tmp_path: Path, argv: tuple[str, ...]):
    modules = _modules_after(tmp_path, *argv)
    assert "typer.rich_utils" in modules  # the help was drawn
    assert _heavy(modules) == []


def test_the_command_table_lists_every_command_in_help_order():
    by_module: dict[str, list[str]] = {}
    for name, module in COMMANDS.items():
        by_module.setdefault(module, []).append(name)
    for info in pkgutil.iter_modules(hopsim.cli.__path__):
        module = import_module(f"hopsim.cli.{info.name}")
        if hasattr(module, "commands"):
            assert module.commands.names() == by_module.pop(info.name, []), info.name
    assert by_module == {}  # every module of the table defines its commands
    assert list(typer.main.get_command(hopsim.cli.app).commands) == list(COMMANDS)


def _invoke(app: typer.Typer, argv: list[str]) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, argv, env={"COLUMNS": "100", "TERMINAL_WIDTH": "100"})
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize("name", list(COMMANDS))
def test_an_app_with_one_command_helps_as_the_full_app(name: str):
    assert _invoke(build_app([name]), [name, "--help"]) == _invoke(hopsim.cli.app, [name, "--help"])


@pytest.mark.parametrize(
    "argv",
    [
        ["run"],
        ["run", "--bogus", CHAIN],
        ["run", str(ROOT / "no-such.toml")],
        ["run", CHAIN, "--seed", "x"],
        ["run", CHAIN, "--set"],
        ["run", CHAIN, "--series-interval", "x"],
        ["validate", CHAIN, "-s", "topology.hops=2", "--seed", "9"],
        ["validate", str(ROOT / "scenarios"), "--raw"],
        ["show", CHAIN, "--dpi", "x"],
        ["advise", "--hops", "0"],
    ],
)
def test_an_app_with_one_command_answers_as_the_full_app(argv: list[str]):
    one = _invoke(build_app([argv[0]]), argv)
    assert one == _invoke(hopsim.cli.app, argv)
    assert one[0] == 2


# --- hopsim.cli.coercion against typer's own coercion ------------------------------------

try:
    from typer._coercion import build_runtime_param
except ImportError:  # a typer that coerces with click's types, no pydantic: nothing replaced
    build_runtime_param = None


def _outcome(runtime: Any, value: Any, param: Any, ctx: Any) -> tuple[Any, ...]:
    try:
        got = runtime.coerce(value, param=param, ctx=ctx)
    except typer.BadParameter as exc:
        return ("error", exc.format_message())
    except Exception as exc:  # a parser's own error (the probe's str.upper on an int)
        return ("raised", type(exc), str(exc))
    return ("ok", type(got), got)


def _values(param: Any, tmp_path: Path) -> list[Any]:
    (tmp_path / "a file.toml").write_text("")
    (tmp_path / "dir").mkdir(exist_ok=True)
    texts = [
        "x",
        "",
        " a b ",
        "-",
        "7",
        "0.5",
        "1e3",
        "//a//b/",
        "\udcff.toml",
        str(tmp_path / "a file.toml"),
        str(tmp_path / "dir"),
        str(tmp_path / "dir") + "//",
        str(tmp_path / "missing" / "x"),
    ]
    values: list[Any] = [None, param.default]
    if param.multiple or param.nargs == -1:
        values += [(), tuple(texts[:4]), tuple(texts[7:]), "x", ("x", 3)]
    else:
        values += [*texts, 3, 2.5, True, b"x"]
    return values


def _check_parity(command: Any, tmp_path: Path) -> int:
    ctx = command.context_class(command)
    checked = 0
    for param in command.params:
        if not hasattr(param, "type_descriptor"):
            continue
        ours = param.get_runtime_param()
        assert type(ours).__name__ == "LazyRuntimeParam", param.name
        for value in _values(param, tmp_path):
            theirs = build_runtime_param(param.type_descriptor)
            want = _outcome(theirs, value, param, ctx)
            assert _outcome(ours, value, param, ctx) == want, (command.name, param.name, value)
            checked += 1
    return checked


@pytest.mark.skipif(build_runtime_param is None, reason="this typer coerces without adapters")
def test_lazy_coercion_gives_what_typer_gives_for_every_hopsim_parameter(tmp_path: Path):
    group = typer.main.get_command(hopsim.cli.app)
    checked = sum(_check_parity(cmd, tmp_path) for cmd in group.commands.values())
    assert checked > 500


@pytest.mark.skipif(build_runtime_param is None, reason="this typer coerces without adapters")
def test_lazy_coercion_gives_what_typer_gives_for_checked_paths(tmp_path: Path):
    # Path options whose checks fail: typer's adapter words the error (the value as typed).
    probe = typer.Typer()

    @probe.command()
    def cmd(
        a: Annotated[Path, typer.Argument(exists=True)],
        b: Annotated[Path, typer.Option(dir_okay=False)] = Path("b"),
        c: Annotated[Path, typer.Option(file_okay=False, allow_dash=True)] = Path("c"),
        d: Annotated[Path, typer.Option(resolve_path=True)] = Path("d"),
        e: Annotated[Path, typer.Option(writable=True, exists=True)] = Path("e"),
        f: Annotated[str, typer.Option(parser=str.upper)] = "f",
        g: Annotated[list[Path] | None, typer.Option()] = None,
        h: Annotated[float, typer.Option(min=0)] = 1.0,
        i: Annotated[int, typer.Option(max=2, clamp=True)] = 3,
        j: Annotated[str, typer.Option(path_type=str)] = "j",
    ) -> None:
        """A probe."""

    assert _check_parity(typer.main.get_command(probe), tmp_path) > 100
