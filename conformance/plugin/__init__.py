"""The pytest plugin behind `pytest conformance`: its options, the case files collected as files
(``cases/<file>.yaml::<case>[<backend>]``), one item per case and backend, and the results file and HTML report
written at the end (by the xdist controller only).

`pytest conformance` loads it through conformance/conftest.py and collects the case directory in place of the
package; ``-p conformance.plugin`` loads it for any other arguments, e.g. a rerun command's node id.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cases import is_case_file
from conformance.plugin import options
from conformance.plugin.items import STATE, CaseFile, CasesDir, state_of
from conformance.plugin.state import State
from conformance.run.paths import describe

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add(parser)


def pytest_configure(config: pytest.Config) -> None:
    # A malformed case file is a collection error for that file; the checks of every other file still run.
    config.option.continue_on_collection_errors = True
    state = config.stash[STATE] = State(config)
    config.pluginmanager.register(state, "conformance-state")
    # `pytest conformance` names the package: collect the case directory instead
    config.args[:] = [str(state.cases_dir) if _is_package(arg) else arg for arg in config.args]
    if config.getoption("list_paths"):
        for line in list_paths(state):
            print(line)
        pytest.exit("listed the path axes", returncode=0)


def _is_package(arg: str) -> bool:
    try:
        return Path(arg.split("::")[0]).resolve() == PACKAGE_DIR
    except OSError:
        return False


def list_paths(state: State) -> list[str]:
    lines = []
    for backend in state.backends.values():
        lines.append(f"{backend.name}:")
        for axis in backend.all_axes():
            values = ", ".join(f"{v} ({axis.label(v)})" if axis.label(v) != v else v for v in axis.values)
            lines.append(f"  {axis.name}: {values}" + (f"  -- {axis.help}" if axis.help else ""))
    lines.append("select with --path AXIS=VALUE, e.g. --path " + describe((("target_shape", "Parameter"),))
                 .replace(" ", "="))
    return lines


def pytest_unconfigure(config: pytest.Config) -> None:
    if STATE in config.stash:
        config.stash[STATE].close()


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    cases_dir = state_of(parent.config).cases_dir
    if path.resolve() == cases_dir or cases_dir in path.resolve().parents:
        return CasesDir.from_parent(parent, path=path)
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    # the file's folder, not the file, resolved: a case file may be a link to one kept elsewhere
    if is_case_file(file_path) and state_of(parent.config).cases_dir in \
            [file_path.parent.resolve(), *file_path.parent.resolve().parents]:
        return CaseFile.from_parent(parent, path=file_path)
    return None


__all__ = ["pytest_addoption", "pytest_collect_directory", "pytest_collect_file", "pytest_configure",
           "pytest_unconfigure"]
