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
    const answer = await cpsolve.ask("/api/position", { position: source });
    if (!answer.ok) {
      // the answers drawn were for the last position read, not for this text: take them away
      drawCells();
      clearAnswers();
      $("problem").textContent = answer.data.error;
      board.dataset.busy = "0";
      return;
    }
    const position = answer.data;
    setGrid(position.rows, position.cols, position.total_mines, position.grid);
  }

  function drawGrid() {
    drawCells();
    const source = text();
    $("text").value = source;
    const address = "/analyse?position=" + encodeURIComponent(source);
    $("share").href = address;
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
      puzzle.count === null || puzzle.count === undefined
        ? ""
        : `${puzzle.count.toLocaleString("en")} placement${puzzle.count === 1 ? "" : "s"} of the mines`;
    board.dataset.status = puzzle.status;
    if (puzzle.probabilities) {
      for (let r = 0; r < state.rows; r++) {
        for (let c = 0; c < state.cols; c++) {
          const value = puzzle.probabilities[r][c];
          const cell = state.cells[r][c];
          if (value === null || state.grid[r][c] !== ".") continue;
          cell.dataset.chance = String(value);
          cell.style.background = cpsolve.heat(value);
          cell.innerHTML = `<span class="chance">${Math.round(value * 100)}</span>`;
        }
      }
    }
    const mark = (cells, kind) => {
      for (const [r, c] of cells || []) {
        const cell = state.cells[r - 1][c - 1];
        cell.classList.add(kind);
        cell.dataset.hint = kind.replace("hint-", "");
      }
    };
    mark(puzzle.surely_safe, "hint-safe");
    mark(puzzle.surely_mine, "hint-mine");
    $("certain").textContent =
      puzzle.status === "solved"
        ? `certain: ${puzzle.surely_safe.length} safe, ${puzzle.surely_mine.length} mines`
        : "";
    $("candidates").replaceChildren();
    if (hint.status === "no_solution") {
      mark(hint.conflict, "conflict");
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
        ? `best move: reveal a certainly safe cell (${hint.safe.length} of them)`
        : "nothing left to reveal";
      return;
    }
    mark([hint.guess.cell], "hint-guess");
    mark(hint.candidates.slice(1).map((candidate) => candidate.cell), "hint-candidate");
    const chance = cpsolve.chanceText(hint.guess.safety_exact, hint.guess.safety);
    $("advice").textContent = `best move: guess ${cpsolve.where(hint.guess.cell)}, safe with chance ${chance}: ${hint.guess.why}`;
    const table = document.createElement("table");
    table.className = "measures";
    const measure = (value) => (value === undefined || value === null ? "–" : value.toFixed(4));
    table.innerHTML =
      "<tr><th>candidate</th><th>safe</th><th>survive</th><th>progress</th><th>opens</th><th>win</th></tr>" +
      hint.candidates
        .map(
          (candidate) =>
            `<tr><td>${cpsolve.where(candidate.cell)}${candidate.dead ? " (dead)" : ""}</td>` +
            `<td>${candidate.safety_exact}</td><td>${measure(candidate.survival)}</td>` +
            `<td>${measure(candidate.progress)}</td><td>${measure(candidate.opening)}</td><td>${measure(candidate.win)}</td></tr>`,
        )
        .join("");
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
    $("pointer").textContent = chance === undefined ? place : `${place}: chance of a mine ${cpsolve.percent(Number(chance))} (${chance})`;
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
    const typed = $("total").value.trim();
    state.total = typed === "" ? null : Number(typed);
    analyse();
  });
  $("read").addEventListener("click", () => read($("text").value));
  $("copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text());
      $("copy").textContent = "Copied";
    } catch (error) {
      $("text").select();
      $("copy").textContent = "Selected: copy it";
    }
    setTimeout(() => ($("copy").textContent = "Copy"), 1500);
  });

  const given = new URLSearchParams(location.search).get("position");
  if (given) read(given);
  else blank();
})();
