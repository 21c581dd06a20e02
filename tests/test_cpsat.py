"""The CP-SAT backend against brute force: free and pinned clicks, every encoding, templates."""

import itertools

import numpy as np
import pytest
from bruteforce import rectangle_wins, winning_clicks

from cpsolve.cli import app
from cpsolve.formats.template import read_template
from cpsolve.layout import (
    NO_PHASES,
    PHASES,
    LayoutProblem,
    SolveOptions,
    Status,
    UnsupportedProblem,
    cpsat,
    problem_violation,
    solve,
)
from cpsolve.layout.cpsat import DOMINANCES, ENCODINGS
from cpsolve.layout.greedy import is_possible

SMALL = [(r, c) for r in range(1, 5) for c in range(1, 5)]


def cp(problem, **options):
    options.setdefault("time_limit", 60)
    options.setdefault("workers", 2)  # the verdict does not depend on it; eight threads on small models only cost
    return solve(problem, "cp", SolveOptions(**options))


@pytest.mark.parametrize("rows,cols", SMALL)
def test_pure_model_equals_brute_force(rows, cols):
    """--dominance none decides every case up to 4x4 as brute force does; every board is judged."""
    wins = rectangle_wins(rows, cols)
    for mines in range(rows * cols):
        result = cp(LayoutProblem(rows, cols, mines), dominance="none")
        assert result.status is (Status.POSSIBLE if wins.get(mines) else Status.IMPOSSIBLE), (rows, cols, mines)
        if result.board is not None:
            assert result.board.click in wins[mines]


@pytest.fixture(params=["all phases", "relaxation first", "strong model alone", "textbook model alone"])
def relaxation(request):
    """Options running every phase, the relaxation then the model, the strong model alone, or the statement alone."""
    if request.param == "all phases":
        return {}
    if request.param == "relaxation first":
        return {"phases": ("relaxation", "model")}
    if request.param == "strong model alone":
        return {"phases": NO_PHASES}
    return {"phases": NO_PHASES, "model": "textbook"}


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("dominance", DOMINANCES)
def test_every_encoding_and_dominance_on_3x3_to_3x4(encoding, dominance, relaxation):
    if dominance == "staircase" and relaxation.get("model") == "textbook":
        return  # the row model is not the statement: refused by check_options, tested in test_cp_cli
    if dominance == "staircase":
        # the staircase model has no reachability: an encoding there is refused, not ignored
        with pytest.raises(UnsupportedProblem, match="staircase"):
            cp(LayoutProblem(3, 3, 1), encoding=encoding, dominance=dominance, **relaxation)
        return
    for rows, cols in [(3, 3), (3, 4), (2, 4)]:
        wins = rectangle_wins(rows, cols)
        for mines in range(rows * cols):
            result = cp(LayoutProblem(rows, cols, mines), encoding=encoding, dominance=dominance, **relaxation)
            expected = Status.POSSIBLE if wins.get(mines) else Status.IMPOSSIBLE
            assert result.status is expected, (encoding, dominance, rows, cols, mines)


@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 4), (4, 4), (2, 5)])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_pinned_click_equals_brute_force(rows, cols, encoding, relaxation):
    wins = rectangle_wins(rows, cols)
    for mines in range(rows * cols):
        for click in itertools.product(range(rows), range(cols)):
            result = cp(LayoutProblem(rows, cols, mines, click=click), encoding=encoding, **relaxation)
            expected = click in wins.get(mines, ())
            assert (result.status is Status.POSSIBLE) == expected, (rows, cols, mines, click)
            assert result.status is not Status.UNKNOWN
            if result.board is not None:
                assert result.board.click == click


TEMPLATES = [
    ("....", "..#.", "....", "#..."),  # holes inside and on the edge
    (
        "..#..",
        "..#..",
        ".....",
    ),  # a wall with a gap: two rooms joined below
    ("c..", ".?.", "..*", "##."),  # pinned click, a fixed mine
    ("?.?#", "*..#", "?..."),  # fixed safe cells and a mine
    ("...", "#.#", "...", "#.#", "..."),  # narrow passages
]


def _template_truth(template):
    cells = [(r, c) for r, row in enumerate(template) for c, ch in enumerate(row) if ch != "#"]
    fixed_mines = {(r, c) for r, c in cells if template[r][c] == "*"}
    fixed_safe = {(r, c) for r, c in cells if template[r][c] in ".c"}
    clicks = [(r, c) for r, c in cells if template[r][c] == "c"]
    wins = winning_clicks(cells, fixed_mines, fixed_safe)
    return cells, wins, (clicks[0] if clicks else None)


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_templates_equal_brute_force(template, encoding, relaxation):
    cells, wins, pinned = _template_truth(template)
    for mines in range(len(cells)):
        problem = LayoutProblem(len(template), len(template[0]), mines, template=tuple(template))
        result = cp(problem, encoding=encoding, **relaxation)
        clicks = wins.get(mines, set())
        expected = bool(clicks) if pinned is None else pinned in clicks
        assert (result.status is Status.POSSIBLE) == expected, (template, mines)
        if result.board is not None:
            assert problem_violation(problem, result.board) is None
            rows = result.board.to_rows()
            assert all(
                ch == "#"
                for row_t, row_b in zip(template, rows, strict=True)
                for ch_t, ch in zip(row_t, row_b, strict=True)
                if ch_t == "#"
            )


def test_holes_split_the_board():
    """Two rooms joined by nothing: one click cannot open both, though each alone could."""
    template = ("??#??", "??#??")
    assert cp(LayoutProblem(2, 5, 0, template=template)).status is Status.IMPOSSIBLE
    assert cp(LayoutProblem(2, 5, 4, template=template)).status is Status.POSSIBLE


def test_dominance_conflicting_with_a_pin_is_refused():
    with pytest.raises(UnsupportedProblem):
        cp(LayoutProblem(4, 4, 3, click=(2, 2)), dominance="staircase")


@pytest.mark.parametrize(
    "problem,dominance",
    [
        *((LayoutProblem(40, 40, 800), dominance) for dominance in DOMINANCES),  # possible
        # impossible (N = 3), proved by reasoning when given time
        *((LayoutProblem(40, 40, 1597), dominance) for dominance in DOMINANCES),
        (LayoutProblem(2, 5, 0, template=("??#??", "??#??")), "none"),  # impossible: two rooms
    ],
)
def test_time_limit_gives_unknown_never_impossible(problem, dominance):
    """A limit shorter than the reserve kept for the judge leaves no phase any time: UNKNOWN exactly."""
    limit = cpsat.RESERVE / 2
    encoding = None if dominance == "staircase" else "levels"
    result = cp(problem, dominance=dominance, encoding=encoding, time_limit=limit)
    assert result.status is Status.UNKNOWN
    assert result.stats["phase"] is None


def test_phase_without_time_gives_unknown(monkeypatch):
    """Time that runs out between phases: the model phases are skipped, and the verdict is UNKNOWN."""
    from cpsolve.layout import grow as grow_module
    from cpsolve.layout import phases as phases_module

    def slow_grow(analysis, deadline, seed=0, max_restarts=None, tree_deadline=None, tight=False, max_tree_groups=8):
        import time

        time.sleep(0.6)  # overrun the whole limit of 0.5 s
        return grow_module.GrowResult(None, None, 0)

    monkeypatch.setattr(phases_module, "grow", slow_grow)
    # N = 48 is past the exhaustive search's reach, so the heuristic runs (and fails)
    result = cp(LayoutProblem(7, 7, 1), dominance="none", time_limit=0.5)
    assert result.status is Status.UNKNOWN and result.stats["phase"] is None


def test_cli_time_limit_exits_3(runner):
    result = runner.invoke(
        app, ["layout", "40", "40", "800", "--backend", "cp", "--dominance", "none", "--time-limit", "0.001"]
    )
    assert result.exit_code == 3 and "time limit" in result.stderr and result.stdout == ""


def test_cli_cp_json_stats(runner):
    result = runner.invoke(
        app, ["layout", "5", "5", "10", "--backend", "cp", "--format", "json", "--dominance", "none"]
    )
    assert result.exit_code == 0
    import json

    payload = json.loads(result.stdout)
    assert payload["status"] == "possible" and payload["backend"] == "cp"
    assert {"phases", "phase", "model", "encoding", "dominance", "workers"} <= payload["stats"].keys()
    assert payload["stats"]["phase"] in PHASES


def test_cli_click_and_template(runner, examples, tmp_path):
    result = runner.invoke(app, ["layout", "5", "5", "4", "--click", "3,3"])
    assert result.exit_code == 0
    rows = result.stdout.split()
    assert rows[2][2] == "c" and "".join(rows).count("*") == 4
    for path in sorted((examples / "templates").glob("*.txt")):
        result = runner.invoke(app, ["layout", "--template", str(path), "3"])
        assert result.exit_code == 0, (path, result.stderr)
        # Too large for brute force: compare with the full model alone (no reasoning, no
        # heuristic, no relaxation), which decides by infeasibility or a solution of its own.
        template = read_template(str(path))
        problem = LayoutProblem(len(template), len(template[0]), 3, template=template)
        alone = cp(problem, phases=NO_PHASES)
        assert alone.status is not Status.UNKNOWN
        if alone.status is Status.IMPOSSIBLE:
            assert result.stdout.strip() == "Impossible", path
        else:
            rows = result.stdout.split()
            mines = np.array([[ch == "*" for ch in row] for row in rows])
            present = np.array([[ch != "#" for ch in row] for row in rows])
            click = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "c")
            from cpsolve.board import Board

            board = Board(mines=mines, click=click, present=present)
            assert problem_violation(problem, board) is None, path


@pytest.mark.parametrize("phases", [PHASES, NO_PHASES], ids=["all phases", "model alone"])
# 5 to 7 rows take seconds each: in the full run only
@pytest.mark.parametrize("rows", [*range(1, 5), *(pytest.param(n, marks=pytest.mark.slow) for n in range(5, 8))])
def test_greedy_rule_equals_pure_model_up_to_7x7(rows, phases):
    """Beyond brute force's 4x4: the greedy rule against --dominance none, every C <= 7 and M."""
    for cols in range(1, 8):
        for mines in range(rows * cols):
            result = cp(LayoutProblem(rows, cols, mines), dominance="none", phases=phases)
            assert (result.status is Status.POSSIBLE) == is_possible(rows, cols, mines), (
                rows,
                cols,
                mines,
                result.stats,
            )
            assert result.status is not Status.UNKNOWN


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["layout", "4", "4", "3", "--click", "5,1"], "outside"),
        (["layout", "4", "4", "3", "--click", "a,b"], "ROW,COL"),
        (["layout", "--template", "TEMPLATE", "99"], "mines must be in"),
        (["layout", "--template", "TEMPLATE", "2", "--click", "1,3"], "missing cell"),
    ],
)
def test_cli_variant_errors(runner, tmp_path, args, fragment):
    template = tmp_path / "t.txt"
    template.write_text("..#\n...\n")
    args = [str(template) if arg == "TEMPLATE" else arg for arg in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and fragment in result.stderr


def test_bad_template(runner, tmp_path):
    template = tmp_path / "t.txt"
    template.write_text("..x\n...\n")
    result = runner.invoke(app, ["layout", "--template", str(template), "1"])
    assert result.exit_code == 1 and "line 1" in result.stderr and "'x'" in result.stderr
    template.write_text("c..\n..c\n")
    result = runner.invoke(app, ["layout", "--template", str(template), "1"])
    assert result.exit_code == 1 and "more than one click" in result.stderr


def test_cp_batch_on_the_codejam_sample(runner, examples, tmp_path):
    sample = examples / "codejam" / "sample.in"
    for dominance in ("staircase", "none"):
        result = runner.invoke(app, ["layout", "-i", str(sample), "--backend", "cp", "--dominance", dominance])
        assert result.exit_code == 0
        out = tmp_path / "out.txt"
        out.write_text(result.stdout)
        judged = runner.invoke(app, ["check", str(sample), str(out)])
        assert judged.exit_code == 0, judged.stdout


def test_greedy_refuses_variants(runner):
    result = runner.invoke(app, ["layout", "4", "4", "3", "--click", "2,2", "--backend", "greedy"])
    assert result.exit_code == 2 and "greedy" in result.stderr


def _template_problem(examples, name, mines):
    from cpsolve.answers import layouts

    return layouts.layout_problem([str(mines)], str(examples / "templates" / name))


@pytest.mark.parametrize(
    "name, mines, phases",
    [
        ("two_rooms.txt", 30, "none"),
        ("two_rooms.txt", 20, "none"),
        ("triangle.txt", 12, "none"),
        ("two_rooms.txt", 30, "all"),
    ],
)
def test_a_seeded_layout_repeats_whatever_the_workers(examples, name, mines, phases):
    """The model's search is CP-SAT's deterministic one over a fixed portfolio: the same board on every
    run and for every number of threads. CP-SAT's own portfolio raced its workers: the first of these
    gave two different boards in six runs of one command."""
    from cpsolve.answers import layouts
    from cpsolve.layout import parse_phases

    problem = _template_problem(examples, name, mines)
    boards = set()
    for workers in (1, 2, 1, 2, 3, 8):
        options = SolveOptions(time_limit=120, workers=workers, seed=5, phases=parse_phases(phases))
        answer = layouts.layout(problem, "cp", options)  # the library function the HTTP API calls
        assert answer.result.status is Status.POSSIBLE and answer.result.repeatable
        assert answer.json()["repeatable"] is True
        boards.add(tuple(answer.result.board.to_rows()))
    assert len(boards) == 1


def test_an_answer_after_a_phase_ran_out_of_its_share_is_not_promised(monkeypatch):
    """A board found after a phase stopped at its share of the time limit (not at its own end) could
    differ on a faster or slower machine, and the answer says so; an Impossible is a proof and repeats;
    an unknown never does."""
    from cpsolve.layout import phases as phases_module

    problem = LayoutProblem(6, 6, 20, click=(2, 2))
    decided = cp(problem, dominance="none")
    assert decided.status is Status.POSSIBLE and decided.repeatable  # the phases decide it within their shares
    monkeypatch.setattr(phases_module, "QUICK_RESTARTS", 0)  # the quick growth tries nothing ...
    real_grow = phases_module._grow

    def out_of_share(run, reasoning, deadline, restarts, tree_deadline=None):
        run.cut = True  # ... and the growth's share runs out with no board
        return None

    monkeypatch.setattr(phases_module, "_grow", out_of_share)
    after_cut = cp(problem, dominance="none", phases=("heuristic", "model"))
    assert after_cut.status is Status.POSSIBLE and not after_cut.repeatable
    monkeypatch.setattr(phases_module, "_grow", real_grow)
    impossible = cp(LayoutProblem(2, 4, 5), dominance="none")  # N = 3 on a board two wide
    assert impossible.status is Status.IMPOSSIBLE and impossible.repeatable
    unknown = cp(LayoutProblem(30, 30, 400), dominance="none", time_limit=0.001)
    assert unknown.status is Status.UNKNOWN and not unknown.repeatable
