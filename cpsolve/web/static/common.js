// What the pages share: asking the API, and drawing a board whose cells carry data-row and data-col (1-based).
// The pages draw and take input; every answer comes from the server.
"use strict";

const cpsolve = {
  // POST a JSON body; resolves to {ok, status, data} (data: the answer, or {error} for a refused request)
  async ask(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      return { ok: false, status: 0, data: { error: "the server cannot be reached: " + error.message } };
    }
    let data;
    try {
      data = cpsolve.parse(await response.text());
    } catch (error) {
      data = { error: "the server's answer is not JSON (status " + response.status + ")" };
    }
    return { ok: response.ok, status: response.status, data };
  },

  // JSON with its whole numbers exact: a count of placements past 2^53 (an expert board's is near 10^107)
  // would come back a rounded double, so such a number is read from its own digits as a BigInt.
  parse(text) {
    return JSON.parse(text, (key, value, context) =>
      typeof value === "number" &&
      !Number.isSafeInteger(value) &&
      context &&
      /^-?\d+$/.test(context.source)
        ? BigInt(context.source)
        : value,
    );
  },

  // A rows x cols grid of cell elements inside `board`; returns the cells as cells[r][c], 0-based.
  build(board, rows, cols) {
    board.replaceChildren();
    board.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
    const cells = [];
    for (let r = 0; r < rows; r++) {
      const row = [];
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("div");
        cell.className = "cell";
        cell.dataset.row = String(r + 1);
        cell.dataset.col = String(c + 1);
        board.appendChild(cell);
        row.push(cell);
      }
      cells.push(row);
    }
    const size = Math.max(16, Math.min(34, Math.floor(840 / Math.max(cols, 1))));
    board.style.setProperty("--cell", size + "px");
    return cells;
  },

  // The cell element an event happened on, with its 0-based place, or null.
  cellOf(event) {
    const cell = event.target.closest(".cell");
    if (!cell) return null;
    return { element: cell, row: Number(cell.dataset.row) - 1, col: Number(cell.dataset.col) - 1 };
  },

  // A cell showing a number: its class for the number's colour.
  number(cell, digit) {
    cell.textContent = String(digit === 0 ? "" : digit);
    cell.classList.add("n" + digit);
  },

  // Reset a cell's look before it is drawn again.
  clear(cell) {
    cell.className = "cell";
    cell.textContent = "";
    delete cell.dataset.chance;
    delete cell.dataset.exact;
    delete cell.dataset.hint;
    cell.style.background = "";
    cell.title = "";
  },

  // The heat of a mine chance (0 green, 1/2 amber, 1 red).
  heat(value) {
    const hue = Math.round(120 * (1 - value));
    return `hsl(${hue} 65% 58%)`;
  },

  percent(value) {
    if (value === 0) return "0%";
    if (value === 1) return "100%";
    const shown = value * 100;
    return (shown < 0.1 || shown > 99.9 ? shown.toPrecision(3) : shown.toFixed(1)) + "%";
  },

  // "3/16 (18.8%)" from an exact fraction's text and its value
  chanceText(exact, value) {
    return exact.includes("/") && exact.length <= 12 ? `${cpsolve.percent(value)} (${exact})` : cpsolve.percent(value);
  },

  where(cell) {
    return `row ${cell[0]}, col ${cell[1]}`;
  },
};
