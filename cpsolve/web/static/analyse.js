// The Analyse page: a position built by clicks or pasted as text; the server reads it (POST /api/position),
// answers the chances, what is certain and the count (POST /api/puzzle) and the best move (POST /api/hint).
// The page keeps the grid, one character a cell in the puzzle format, and draws the answers on it.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const TOOLS = [".", "0", "1", "2", "3", "4", "5", "6", "7", "8", "*", "#"];
  const TOOL_NAMES = { ".": "covered", "*": "flag (a known mine)", "#": "no cell" };
  const state = { rows: 0, cols: 0, total: null, grid: [], cells: [], tool: "1", asked: 0, hover: null };

  // the position as puzzle text: "R C M" (or "R C") then a row of characters per row
  function text() {
    const header = state.total === null ? `${state.rows} ${state.cols}` : `${state.rows} ${state.cols} ${state.total}`;
    return [header, ...state.grid.map((row) => row.join(""))].join("\n") + "\n";
  }

  function setGrid(rows, cols, total, grid) {
    state.rows = rows;
    state.cols = cols;
    state.total = total;
    state.grid = grid.map((row) => [...row]);
    $("rows").value = rows;
    $("cols").value = cols;
    $("total").value = total === null ? "" : total;
    state.cells = cpsolve.build(board, rows, cols);
    analyse();
  }

  function blank() {
    const rows = Math.max(1, Math.min(100, Number($("rows").value) || 9));
    const cols = Math.max(1, Math.min(100, Number($("cols").value) || 9));
    const typed = $("total").value.trim();
    setGrid(rows, cols, typed === "" ? null : Number(typed), Array.from({ length: rows }, () => ".".repeat(cols)));
  }

  function paint(r, c, ch) {
    if (state.grid[r][c] === ch) return;
    state.grid[r][c] = ch;
    analyse();
  }

  // read pasted text with the server's reader, then analyse what it read
  async function read(source) {
    $("problem").textContent = "";
    board.dataset.busy = "1";
    const asked = ++state.asked;
    const answer = await cpsolve.ask("/api/position", { position: source });
    if (asked !== state.asked) return; // the position changed meanwhile
    if (!answer.ok) {
      // the board, its sizes and the answers drawn were the last position's, not this text's: take them all away,
      // so only the text and what is wrong with it show
      noPosition();
      $("problem").textContent = answer.data.error;
      board.dataset.busy = "0";
      cpsolve.show(document.querySelector("section.view"));
      return;
    }
    const position = answer.data;
    setGrid(position.rows, position.cols, position.total_mines, position.grid);
    cpsolve.show(document.querySelector("section.view"));
  }

  // No position: the text was refused. No board, no sizes, no answers, no link.
  function noPosition() {
    state.rows = state.cols = 0;
    state.total = null;
    state.grid = [];
    state.cells = [];
    state.hover = null;
    board.replaceChildren();
    for (const id of ["rows", "cols", "total"]) $(id).value = "";
    $("share").hidden = true;
    history.replaceState(null, "", "/analyse");
    clearAnswers();
    $("pointer").textContent = "";
    $("chance-key").hidden = true;
  }

  function drawGrid() {
    drawCells();
    const source = text();
    $("text").value = source;
    const address = "/analyse?position=" + encodeURIComponent(source);
    $("share").href = address;
    $("share").hidden = false;
    history.replaceState(null, "", address);
  }

  // the position's cells, without chances or marks
  function drawCells() {
    for (let r = 0; r < state.rows; r++) {
      for (let c = 0; c < state.cols; c++) {
        const cell = state.cells[r][c];
        cpsolve.clear(cell);
        const ch = state.grid[r][c];
        if (ch === ".") cell.dataset.state = "covered";
        else if (ch === "*") {
          cell.dataset.state = "flag";
          cell.textContent = "⚑";
        } else if (ch === "#") cell.dataset.state = "hole";
        else {
          cell.dataset.state = "clue";
          cpsolve.number(cell, Number(ch));
          if (ch === "0") cell.textContent = "0";
        }
      }
    }
  }

  function clearAnswers() {
    for (const id of ["verdict", "count", "certain", "advice"]) $(id).textContent = "";
    $("verdict").className = "big";
    $("candidates").replaceChildren();
    delete board.dataset.status;
  }

  async function analyse() {
    drawGrid();
    board.dataset.busy = "1"; // for the tests: "0" once the answers are drawn
    const asked = ++state.asked;
    const position = text();
    const [puzzle, hint] = await Promise.all([
      cpsolve.ask("/api/puzzle", { position, count: true, deduce: true, probabilities: true }),
      cpsolve.ask("/api/hint", { position }),
    ]);
    if (asked !== state.asked) return; // the grid changed meanwhile
    $("problem").textContent = "";
    if (!puzzle.ok || !hint.ok) {
      clearAnswers(); // an error answers this position: the last one's answers must not stay beside it
      $("problem").textContent = (puzzle.ok ? hint : puzzle).data.error;
    } else drawAnswers(puzzle.data, hint.data);
    board.dataset.busy = "0";
  }

  function drawAnswers(puzzle, hint) {
    const words = { solved: "consistent", no_solution: "no placement fits", unknown: "time limit reached" };
    $("verdict").textContent = words[puzzle.status] || puzzle.status;
    $("verdict").className = "big " + (puzzle.status === "no_solution" ? "lost" : "");
    $("count").textContent =
      puzzle.count === null || puzzle.count === undefined ? "" : `${cpsolve.counted(puzzle.count, "placement")} of the mines`;
    board.dataset.status = puzzle.status;
    // the exact fractions, when the server gives them (probabilities_exact: the same grid, each chance as "3/16")
    const exact = puzzle.probabilities_exact;
    if (puzzle.probabilities) {
      for (let r = 0; r < state.rows; r++) {
        for (let c = 0; c < state.cols; c++) {
          const value = puzzle.probabilities[r][c];
          if (value === null || state.grid[r][c] !== ".") continue;
          cpsolve.chance(state.cells[r][c], value, exact ? exact[r][c] : undefined);
        }
      }
    }
    $("chance-key").hidden = !puzzle.probabilities;
    // what is certain: S and M on the cells (drawn by their chance of 0 or 1 too), ringed
    const mark = (cells, kind, letter) => {
      for (const [r, c] of cells || []) {
        const cell = state.cells[r - 1][c - 1];
        cell.classList.add("hint-" + kind);
        cell.dataset.hint = kind;
        if (letter && cell.dataset.chance === undefined) cpsolve.mark(cell, letter);
      }
    };
    mark(puzzle.surely_safe, "safe", cpsolve.SAFE);
    mark(puzzle.surely_mine, "mine", cpsolve.MINE);
    $("certain").textContent =
      puzzle.status === "solved"
        ? `for certain: ${cpsolve.counted(puzzle.surely_safe.length, "safe cell")} (${cpsolve.SAFE}), ` +
          `${cpsolve.counted(puzzle.surely_mine.length, "mine")} (${cpsolve.MINE})`
        : "";
    $("candidates").replaceChildren();
    if (hint.status === "no_solution") {
      for (const [r, c] of hint.conflict) state.cells[r - 1][c - 1].classList.add("conflict");
      const total = hint.conflict_total ? " and the total" : "";
      $("advice").textContent = hint.conflict.length
        ? `these clues cannot all hold${total}: ${hint.conflict.map(cpsolve.where).join("; ")}` +
          (hint.conflict_minimal ? " (a minimal set)" : " (not yet minimal: time ran out)")
        : "the total cannot hold: no placement of the covered cells has that many mines";
      return;
    }
    if (hint.status !== "ok") {
      $("advice").textContent = "best move: the time limit ran out";
      return;
    }
    if (!hint.guess) {
      $("advice").textContent = hint.safe.length
        ? `best move: reveal a cell safe for certain (${cpsolve.SAFE}; ${hint.safe.length} of them)`
        : "nothing left to reveal";
      return;
    }
    // the guess is A and the other candidates B, C, ... on the board and in the table, as `cpsolve hint` marks them
    hint.candidates.forEach((candidate, i) => {
      const cell = state.cells[candidate.cell[0] - 1][candidate.cell[1] - 1];
      cell.dataset.label = LETTERS[i] || "";
    });
    mark([hint.guess.cell], "guess");
    mark(hint.candidates.slice(1).map((candidate) => candidate.cell), "candidate");
    const chance = cpsolve.chanceText(hint.guess.safety, hint.guess.safety_exact);
    $("advice").textContent =
      `best move: guess ${cpsolve.where(hint.guess.cell)} (A), safe with chance ${chance}: ${hint.guess.why}`;
    drawCandidates(hint.candidates);
  }

  // The candidates' measures as chances, in the columns some candidate has (the win chance only when the endgame
  // search gave it, the depth-3 score only when that search ran).
  const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const MEASURES = [
    ["survival", "survive", "the chance of surviving this click and the next"],
    ["progress", "progress", "the chance of a certain move after this click"],
    ["opening", "opens", "the chance this click opens a region (shows a 0)"],
    ["win", "win", "the exact chance of winning with best play after it (endgame search)"],
    ["deep", "depth 3", "the depth-3 search's score: surviving this click and the best two guesses after"],
  ];

  function drawCandidates(candidates) {
    const shown = MEASURES.filter(([key]) => candidates.some((candidate) => typeof candidate[key] === "number"));
    const table = document.createElement("table");
    table.className = "measures";
    const head = document.createElement("tr");
    const th = (words, title) => {
      const cell = document.createElement("th");
      cell.textContent = words;
      if (title) cell.title = title;
      return cell;
    };
    head.append(th("candidate"), th("safe", "the chance this click is safe"), ...shown.map(([, words, title]) => th(words, title)));
    table.append(head);
    candidates.forEach((candidate, i) => {
      const row = document.createElement("tr");
      const values = [
        `${LETTERS[i] || ""} ${cpsolve.where(candidate.cell)}${candidate.dead ? " (dead)" : ""}`,
        cpsolve.chanceText(candidate.safety, candidate.safety_exact),
        ...shown.map(([key]) => (typeof candidate[key] === "number" ? cpsolve.percent(candidate[key]) : "–")),
      ];
      for (const value of values) {
        const cell = document.createElement("td");
        cell.textContent = value;
        row.append(cell);
      }
      table.append(row);
    });
    $("candidates").appendChild(table);
  }

  // the palette
  for (const tool of TOOLS) {
    const button = document.createElement("button");
    button.textContent = tool === "*" ? "⚑" : tool === "." ? "▢" : tool;
    button.title = TOOL_NAMES[tool] || `the clue ${tool}`;
    button.dataset.tool = tool;
    button.addEventListener("click", () => {
      state.tool = tool;
      for (const other of $("palette").children) other.classList.toggle("on", other === button);
    });
    button.classList.toggle("on", tool === state.tool);
    $("palette").appendChild(button);
  }

  board.addEventListener("click", (event) => {
    const at = cpsolve.cellOf(event);
    if (at) paint(at.row, at.col, state.tool);
  });
  board.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    const at = cpsolve.cellOf(event);
    if (at) paint(at.row, at.col, state.grid[at.row][at.col] === "*" ? "." : "*");
  });
  board.addEventListener("mouseover", (event) => {
    const at = cpsolve.cellOf(event);
    state.hover = at;
    if (!at) return;
    const chance = at.element.dataset.chance;
    const place = `row ${at.row + 1}, col ${at.col + 1}`;
    $("pointer").textContent =
      chance === undefined ? place : `${place}: chance of a mine ${cpsolve.chanceText(Number(chance), at.element.dataset.exact)}`;
  });
  board.addEventListener("mouseleave", () => (state.hover = null));
  document.addEventListener("keydown", (event) => {
    if (!state.hover || event.target.closest("input, textarea, select")) return;
    const key = event.key === "f" || event.key === "F" ? "*" : event.key;
    if (!TOOLS.includes(key)) return;
    event.preventDefault();
    paint(state.hover.row, state.hover.col, key);
  });

  $("blank").addEventListener("click", blank);
  $("total").addEventListener("change", () => {
    if (!state.rows) return; // no position (the text was refused): the text says the total
    const typed = $("total").value.trim();
    state.total = typed === "" ? null : Number(typed);
    analyse();
  });
  $("read").addEventListener("click", () => read($("text").value));
  $("copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("text").value);
      $("copy").textContent = "Copied";
    } catch (error) {
      $("text").select();
      $("copy").textContent = "Selected: copy it";
    }
    setTimeout(() => ($("copy").textContent = "Copy"), 1500);
  });

  cpsolve.chanceKey($("chance-key"));
  $("chance-key").hidden = true;
  const given = new URLSearchParams(location.search).get("position");
  if (given) read(given);
  else blank();
})();
