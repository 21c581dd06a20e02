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

  // A rows x cols grid of cell elements inside `board`; returns the cells as cells[r][c], 0-based. The cells are
  // as large as the board's box lets them be (its own box scrolls when even the smallest are too wide).
  build(board, rows, cols) {
    board.replaceChildren();
    board.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
    board.dataset.cols = String(cols);
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
    cpsolve.boards.add(board);
    cpsolve.fit(board);
    return cells;
  },

  // The boards drawn, fitted again when the window changes size.
  boards: new Set(),

  // The cell size that fits the board's box: 34 px at most, 20 at least (then the box scrolls).
  fit(board) {
    const cols = Number(board.dataset.cols || 0);
    if (!cols) return;
    const room = (board.parentElement || board).clientWidth - 8; // less the board's padding
    const size = Math.max(20, Math.min(34, Math.floor((room + 1) / cols) - 1));
    board.style.setProperty("--cell", size + "px");
  },

  // The cell element an event happened on, with its 0-based place, or null.
  cellOf(event) {
    const cell = event.target.closest(".cell");
    if (!cell || !cell.dataset.row) return null;
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
    delete cell.dataset.label;
    cell.style.background = "";
    cell.style.color = "";
    cell.title = "";
  },

  // The marks of what is certain, as the command line and the terminal game draw them.
  SAFE: "S",
  MINE: "M",
  GUESS: "?",

  // A letter on a covered cell (S, M, ?): in its own span, so the cell's text is the letter alone.
  mark(cell, letter) {
    cell.innerHTML = `<span class="mark">${letter}</span>`;
  },

  // A covered cell's chance of a mine drawn on it: S on a light cell when it is safe for certain, M on a dark one
  // when it is a mine for certain, else the percentage rounded into 1-99 on its shade of the scale. `exact` is
  // the fraction as text when the server gave it.
  chance(cell, value, exact) {
    cell.dataset.chance = String(value);
    if (exact !== undefined && exact !== null) cell.dataset.exact = exact;
    cell.title = "chance of a mine " + cpsolve.chanceText(value, exact);
    if (value === 0) {
      cell.classList.add("certain-safe");
      cpsolve.mark(cell, cpsolve.SAFE);
    } else if (value === 1) {
      cell.classList.add("certain-mine");
      cpsolve.mark(cell, cpsolve.MINE);
    } else {
      const [background, ink] = cpsolve.heat(value);
      cell.style.background = background;
      cell.style.color = ink;
      cell.innerHTML = `<span class="chance">${cpsolve.rounded(value)}</span>`;
    }
  },

  // The percentage a cell shows: rounded, but never 0 or 100 unless it is certain.
  rounded(value) {
    return Math.min(99, Math.max(1, Math.round(value * 100)));
  },

  // The scale's stops (ColorBrewer's YlOrRd, which reads in lightness alone) and the text drawn on each.
  SCALE: ["#ffeda0", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026", "#800026"],

  // The shade of a chance of a mine strictly between 0 and 1, and the ink that reads on it: by the square root
  // of the chance, so the chances a game is full of (5% to 30%) are far apart on the scale.
  heat(value) {
    const stops = cpsolve.SCALE.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
    const t = Math.sqrt(Math.min(Math.max(value, 0), 1)) * (stops.length - 1);
    const i = Math.min(Math.floor(t), stops.length - 2);
    const rgb = stops[i].map((a, k) => Math.round(a + (stops[i + 1][k] - a) * (t - i)));
    const light = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 150;
    return [`rgb(${rgb.join(" ")})`, light ? "#111" : "#fff"];
  },

  // The key to the chances, drawn with the cells' own look: S, the scale with its numbers, M (`scale`: the scale alone).
  chanceKey(element, scale) {
    const cellOf = (value) => {
      const cell = document.createElement("span");
      cell.className = "cell";
      cpsolve.chance(cell, value);
      cell.removeAttribute("title");
      return cell;
    };
    const item = (cell, words) => {
      const span = document.createElement("span");
      span.className = "item";
      span.append(cell, words);
      return span;
    };
    const cells = document.createElement("span");
    cells.className = "scale";
    for (const percent of [1, 5, 10, 20, 35, 50, 70, 90, 99]) cells.append(cellOf(percent / 100));
    if (scale) {
      element.replaceChildren(cells, "chance of a mine in %");
      return;
    }
    const key = document.createElement("div");
    key.className = "key";
    key.append(item(cellOf(0), "safe for certain"), item(cells, "chance of a mine in %"), item(cellOf(1), "a mine for certain"));
    element.replaceChildren(key);
  },

  percent(value) {
    if (value === 0) return "0%";
    if (value === 1) return "100%";
    const shown = value * 100;
    return (shown < 0.1 || shown > 99.9 ? shown.toPrecision(3) : shown.toFixed(1)) + "%";
  },

  // A chance as every line of the pages writes it: "18.8% (3/16)", the percentage alone when the exact fraction
  // is not known or is too long to read.
  chanceText(value, exact) {
    const fraction = typeof exact === "string" && exact.includes("/") && exact.length <= 12;
    return fraction ? `${cpsolve.percent(value)} (${exact})` : cpsolve.percent(value);
  },

  // "1 mine", "2 mines": a count with its word, singular for one.
  counted(count, word, plural) {
    const number = typeof count === "bigint" || typeof count === "number" ? count.toLocaleString("en") : String(count);
    return `${number} ${count == 1 ? word : plural || word + "s"}`;
  },

  // Bring an element into view when it is off the screen (on a phone the answers are above the controls).
  show(element) {
    const top = element.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight - 40) element.scrollIntoView({ block: "start" });
  },

  where(cell) {
    return `row ${cell[0]}, col ${cell[1]}`;
  },
};

window.addEventListener("resize", () => {
  for (const board of cpsolve.boards) if (board.isConnected) cpsolve.fit(board);
});
