// The Layout page: R C M, or a template drawn on a grid, sent to POST /api/layout; the board drawn, or Impossible
// with what proved it.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const TOOLS = ["?", ".", "*", "#", "c"];
  const state = { template: [], templateCells: [], tool: "#" };

  function newTemplate() {
    const rows = Math.max(1, Math.min(100, Number($("rows").value) || 4));
    const cols = Math.max(1, Math.min(100, Number($("cols").value) || 7));
    state.template = Array.from({ length: rows }, () => Array(cols).fill("?"));
    state.templateCells = cpsolve.build($("template"), rows, cols);
    drawTemplate();
  }

  function drawTemplate() {
    state.template.forEach((row, r) =>
      row.forEach((ch, c) => {
        const cell = state.templateCells[r][c];
        cpsolve.clear(cell);
        cell.dataset.state = { "?": "covered", ".": "cleared", "*": "mine", "#": "hole", c: "cleared" }[ch];
        cell.textContent = { "?": "?", "*": "✱", c: "c" }[ch] || "";
      }),
    );
  }

  function paint(r, c) {
    if (state.tool === "c") {
      for (const row of state.template) row.forEach((ch, i) => ch === "c" && (row[i] = "?"));
    }
    state.template[r][c] = state.tool;
    drawTemplate();
  }

  async function solve() {
    const body = { mines: Number($("mines").value) };
    // empty: the server's own limit (its --time-limit), which is also the most it takes
    if ($("time-limit").value !== "") body.time_limit = Number($("time-limit").value);
    if ($("use-template").checked) body.template = state.template.map((row) => row.join("")).join("\n") + "\n";
    else Object.assign(body, { rows: Number($("rows").value), cols: Number($("cols").value) });
    if ($("backend").value) body.backend = $("backend").value;
    $("problem").textContent = "";
    $("verdict").textContent = "solving…";
    $("board").dataset.busy = "1";
    const answer = await cpsolve.ask("/api/layout", body);
    if (!answer.ok) {
      // the board and lines drawn answered the last problem, not this one: take them away
      $("board").replaceChildren();
      delete $("board").dataset.status;
      for (const id of ["verdict", "how", "reason"]) $(id).textContent = "";
      $("problem").textContent = answer.data.error;
    } else draw(answer.data);
    $("board").dataset.busy = "0";
    cpsolve.show(document.querySelector("section.view"));
  }

  function draw(result) {
    const board = $("board");
    board.replaceChildren();
    const words = { possible: "a one-click board", impossible: "Impossible", unknown: "unknown: the time limit ran out" };
    $("verdict").textContent = words[result.status];
    $("verdict").className = "big " + (result.status === "possible" ? "won" : result.status === "impossible" ? "lost" : "");
    board.dataset.status = result.status;
    $("how").textContent =
      `${result.rows}×${result.cols}, ${cpsolve.counted(result.mines, "mine")} · ${result.backend} · ${duration(result.seconds)}`;
    const stats = result.stats || {};
    if (result.status === "possible") {
      const cells = cpsolve.build(board, result.rows, result.cols);
      result.board.forEach((row, r) =>
        [...row].forEach((ch, c) => {
          const cell = cells[r][c];
          cell.dataset.state = { "*": "mine", ".": "cleared", c: "cleared", "#": "hole" }[ch];
          cell.textContent = { "*": "✱", c: "c" }[ch] || "";
          if (ch === "c") cell.classList.add("click");
        }),
      );
      $("reason").textContent = `click ${cpsolve.where(result.click)} (c): one click reveals every safe cell`;
    } else if (result.status === "impossible") {
      const phase = stats.phase ? `, decided by the ${stats.phase}` : "";
      $("reason").textContent = stats.reason
        ? `why: ${stats.reason}`
        : result.backend === "greedy"
          ? greedyReason(result.rows, result.cols, result.mines)
          : `proved by the ${result.backend} backend${phase}${stats.status ? ` (${stats.status})` : ""}`;
    } else {
      $("reason").textContent = "no verdict within the time limit (never reported as Impossible)";
    }
  }

  // The time taken, in words that never say 0.0 ms.
  function duration(seconds) {
    if (seconds >= 1) return `${seconds.toFixed(2)} s`;
    const ms = seconds * 1000;
    return ms < 0.1 ? "under 0.1 ms" : `${ms.toFixed(1)} ms`;
  }

  // The greedy method's feasibility rule, on N = rows x cols - mines (the safe cells), and the clause this board fails.
  function greedyReason(rows, cols, mines) {
    const safe = rows * cols - mines;
    const rule =
      "why: the greedy method's feasibility rule, on N = rows × cols − mines, the safe cells: a one-click board exists " +
      "when N = 1 or the board is one row or column; on a board two rows or columns wide, when N is even and at least 4; " +
      "on any other board, when N is not 2, 3, 5 or 7.";
    const here = `Here N = ${rows} × ${cols} − ${mines} = ${cpsolve.counted(safe, "safe cell")}`;
    const clause =
      Math.min(rows, cols) === 2
        ? safe % 2
          ? "odd, on a board two wide"
          : "fewer than 4, on a board two wide"
        : "one of 2, 3, 5 and 7";
    return `${rule} ${here}: ${clause}.`;
  }

  for (const tool of TOOLS) {
    const button = document.createElement("button");
    button.textContent = tool;
    button.dataset.tool = tool;
    button.addEventListener("click", () => {
      state.tool = tool;
      for (const other of $("palette").children) other.classList.toggle("on", other === button);
    });
    button.classList.toggle("on", tool === state.tool);
    $("palette").appendChild(button);
  }
  $("template").addEventListener("click", (event) => {
    const at = cpsolve.cellOf(event);
    if (at) paint(at.row, at.col);
  });
  $("use-template").addEventListener("change", () => {
    const on = $("use-template").checked;
    $("template").hidden = $("template-tools").hidden = !on;
    if (on && !state.template.length) newTemplate();
  });
  $("new-template").addEventListener("click", newTemplate);
  $("solve").addEventListener("click", solve);
})();
