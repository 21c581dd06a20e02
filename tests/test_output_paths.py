"""Output paths: one that names an input, or another output, is refused before anything is written; --plot writes
exactly the name it is given, in the format its extension names, or is a usage error before the sweep."""

from __future__ import annotations

import os

import pytest

from cpsolve.cli import app


def _one_line(result) -> bool:
    return result.stderr.count("\n") == 1 and result.stderr.startswith("cpsolve: ") and "Traceback" not in result.stderr


@pytest.fixture
def store(runner, tmp_path):
    """A finished store of a small sweep, and its bytes."""
    path = tmp_path / "S.db"
    result = runner.invoke(
        app, ["compare", "--rows", "2-3", "--cols", "2", "--backends", "greedy", "--store", str(path), "--quiet"]
    )
    assert result.exit_code == 0, result.stderr
    return path, path.read_bytes()


@pytest.mark.parametrize("option", ["--json", "--csv"])
@pytest.mark.parametrize("spelling", ["{store}", "./{name}", "{folder}/../{folder_name}/{name}", "{link}", "{hard}"])
def test_report_refuses_to_write_over_its_store(runner, tmp_path, store, monkeypatch, option, spelling):
    path, original = store
    monkeypatch.chdir(tmp_path)
    os.symlink(path, tmp_path / "link.db")
    os.link(path, tmp_path / "hard.db")
    target = spelling.format(
        store=path,
        name=path.name,
        folder=tmp_path,
        folder_name=tmp_path.name,
        link=tmp_path / "link.db",
        hard=tmp_path / "hard.db",
    )
    result = runner.invoke(app, ["report", str(path), option, target])
    assert result.exit_code == 1 and "the same file as the store" in result.stderr and _one_line(result)
    assert path.read_bytes() == original and result.stdout == ""


def test_report_refuses_a_plot_over_its_store(runner, tmp_path, store):
    """An image name that leads to the store (a link) is refused as the store itself."""
    path, original = store
    os.symlink(path, tmp_path / "picture.png")
    result = runner.invoke(app, ["report", str(path), "--plot", str(tmp_path / "picture.png")])
    assert result.exit_code == 1 and "the same file as the store" in result.stderr and _one_line(result)
    assert path.read_bytes() == original


def test_compare_refuses_a_report_over_its_store_or_over_another_report(runner, tmp_path):
    store = tmp_path / "S.db"
    result = runner.invoke(
        app, ["compare", "--rows", "2", "--cols", "2", "--store", str(store), "--json", str(store), "--quiet"]
    )
    assert result.exit_code == 1 and "--json" in result.stderr and "the same file as --store" in result.stderr
    assert _one_line(result) and not store.exists() and result.stdout == ""
    report = tmp_path / "r.json"
    result = runner.invoke(
        app,
        [
            "compare",
            "--rows",
            "2",
            "--cols",
            "2",
            "--json",
            str(report),
            "--csv",
            str(tmp_path / "." / "r.json"),
            "--quiet",
        ],
    )
    assert result.exit_code == 1 and "--csv" in result.stderr and "the same file as --json" in result.stderr
    assert not report.exists()


def test_layout_refuses_to_write_its_model_over_its_template_or_input(runner, tmp_path):
    template = tmp_path / "T.txt"
    template.write_text("?.\n..\n")
    result = runner.invoke(app, ["layout", "--template", str(template), "1", "--export-model", str(template)])
    assert result.exit_code == 1 and "the same file as --template" in result.stderr and _one_line(result)
    assert template.read_text() == "?.\n..\n"
    cases = tmp_path / "cases.in"
    cases.write_text("1\n2 2 0\n")
    result = runner.invoke(app, ["layout", "--input", str(cases), "--backend", "cp", "--export-model", str(cases)])
    assert result.exit_code == 1 and "the same file as --input" in result.stderr
    # with --input the model of case K goes to NAME-K.EXT: that name must not be the input either
    numbered = tmp_path / "m-1.txt"
    numbered.write_text("1\n2 2 0\n")
    result = runner.invoke(
        app, ["layout", "--input", str(numbered), "--backend", "cp", "--export-model", str(tmp_path / "m.txt")]
    )
    assert result.exit_code == 1 and "would be the --input file" in result.stderr and result.stdout == ""
    assert numbered.read_text() == "1\n2 2 0\n"
    # ... nor a link that leads to it
    os.symlink(cases, tmp_path / "n-1.txt")
    result = runner.invoke(
        app, ["layout", "--input", str(cases), "--backend", "cp", "--export-model", str(tmp_path / "n.txt")]
    )
    assert result.exit_code == 1 and "the same file as --input" in result.stderr
    assert cases.read_text() == "1\n2 2 0\n"


def test_stats_store_belongs_to_random_games(runner, tmp_path):
    boards = tmp_path / "boards.txt"
    boards.write_text("3 3\n*..\n...\n...\n")
    result = runner.invoke(app, ["stats", str(boards), "--store", str(boards)])
    assert result.exit_code == 2 and "--store applies to --random only" in result.stderr
    assert boards.read_text() == "3 3\n*..\n...\n...\n"


@pytest.mark.parametrize(
    "name, why",
    [
        ("times", "no extension"),
        ("full", "no extension"),
        ("times.txt", "does not write .txt"),
        ("store.db", "does not write .db"),
        ("latex.pgf", "does not write .pgf"),
    ],
)
def test_a_plot_name_must_name_an_image_format(runner, tmp_path, name, why):
    target = tmp_path / name
    result = runner.invoke(app, ["compare", "--rows", "1-40", "--cols", "1-40", "--plot", str(target), "--quiet"])
    assert result.exit_code == 2 and why in result.stderr and ".png" in result.stderr and _one_line(result)
    assert result.stdout == "" and list(tmp_path.iterdir()) == []  # refused before the sweep


def test_report_plot_name_must_name_an_image_format(runner, tmp_path, store):
    path, original = store
    result = runner.invoke(app, ["report", str(path), "--plot", str(tmp_path / "X.db")])
    assert result.exit_code == 2 and "does not write .db" in result.stderr and result.stdout == ""
    assert not (tmp_path / "X.db").exists() and path.read_bytes() == original


@pytest.mark.parametrize("name, magic", [("t.svg", b"<?xml"), ("t.PDF", b"%PDF"), ("t.png", b"\x89PNG")])
def test_plot_writes_exactly_its_name_in_its_format(runner, tmp_path, store, name, magic):
    path, _ = store
    result = runner.invoke(app, ["report", str(path), "--plot", str(tmp_path / name)])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / name).read_bytes().startswith(magic)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, name])


def test_a_plot_to_a_device_without_extension_is_refused(runner):
    """``--plot /dev/full`` once wrote /dev/full.png and exited 0."""
    existed = os.path.exists("/dev/full.png")
    result = runner.invoke(app, ["compare", "--rows", "2", "--cols", "2", "--plot", "/dev/full", "--quiet"])
    assert result.exit_code == 2 and "no extension" in result.stderr
    assert os.path.exists("/dev/full.png") == existed
