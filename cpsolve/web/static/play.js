// The Play page: a game is its deal's settings and its moves. Each move is sent with all the moves before it and the
// server replays them by the game's rules (POST /api/game); this page draws the answer, takes the input and keeps
// the clock. Nothing here reveals, cascades or chords.
"use strict";

(() => {
  const LEVELS = { beginner: [9, 9, 10], intermediate: [16, 16, 40], expert: [16, 30, 99] };
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const state = {
    settings: null,
    moves: [],
    view: null,
    cells: [],
    showChances: false,
    showHint: false,
    cursor: [0, 0],
    started: null,
    ended: null,
    asked: 0,
    deals: 0,
    judgedAll: false,
    dealing: false,
  };

  function randomSeed() {
    const values = new Uint32Array(1);
    crypto.getRandomValues(values);
    return values[0] % 2147483648;
  }

  function settingsFromControls() {
    const level = $("level").value;
    const [rows, cols, mines] =
      level === "custom" ? [Number($("rows").value), Number($("cols").value), Number($("mines").value)] : LEVELS[level];
    const typed = $("seed").value.trim();
    // the seed shown is the current board's: a new game takes a new seed unless another was typed
    const seed = typed === "" || typed === $("seed").dataset.shown ? randomSeed() : Number(typed);
    return { rows, cols, mines, start: $("start").value, no_guess: $("no-guess").value || null, seed };
  }

  function showSettings(settings) {
    const level = Object.keys(LEVELS).find((name) => LEVELS[name].join() === [settings.rows, settings.cols, settings.mines].join());
    $("level").value = level || "custom";
    $("custom").hidden = Boolean(level);
    $("rows").value = settings.rows;
    $("cols").value = settings.cols;
    $("mines").value = settings.mines;
    $("start").value = settings.start;
    $("no-guess").value = settings.no_guess || "";
    $("seed").value = settings.seed;
    $("seed").dataset.shown = String(settings.seed);
  }

  function link(settings) {
    const query = new URLSearchParams({
      rows: settings.rows, cols: settings.cols, mines: settings.mines, start: settings.start, seed: settings.seed,
    });
    if (settings.no_guess) query.set("no_guess", settings.no_guess);
    return "/?" + query.toString();
  }

  function settingsFromAddress() {
    const query = new URLSearchParams(location.search);
    if (![...query.keys()].length) return null;
    const level = LEVELS[query.get("level")] || LEVELS.beginner;
    const number = (name, fallback) => (query.has(name) && query.get(name) !== "" ? Number(query.get(name)) : fallback);
    return {
      rows: number("rows", level[0]),
      cols: number("cols", level[1]),
      mines: number("mines", level[2]),
      start: query.get("start") === "safe" ? "safe" : "opening",
      no_guess: query.get("no_guess") || null,
      seed: number("seed", randomSeed()),
    };
  }

  // A new deal: asked of the server first, and drawn only when it is dealt. A refused deal (30 mines on a 5x5
  // board) leaves the game in play as it was, its board, header, seed and keys; with no game before it (a refused
  // address), no board is drawn and the header says so.
  async function newGame(settings) {
    const deal = ++state.deals;
    state.dealing = true;
    $("problem").textContent = "";
    board.dataset.busy = "1";
    const answer = await cpsolve.ask("/api/game", {
      ...settings,
      moves: [],
      chances: state.showChances,
      hint: state.showHint,
      judge: "last",
    });
    if (deal !== state.deals) return; // another deal was asked meanwhile
    state.dealing = false;
    if (!answer.ok) {
      const error = answer.data.error || "the server refused the request";
      $("problem").textContent = state.view
        ? `New game refused: ${error}. The game in play goes on.`
        : `No game: ${error}.`;
      if (!state.view) {
        noGame();
        showSettings(settings); // what was asked, to mend
        delete $("seed").dataset.shown;
      }
      board.dataset.busy = "0";
      cpsolve.show(document.querySelector("section.view"));
      return;
    }
    state.asked++; // an answer still on its way was about the game before
    state.settings = settings;
    state.moves = [];
    state.started = state.ended = null;
    state.judgedAll = false;
    state.cells = cpsolve.build(board, settings.rows, settings.cols);
    state.cursor = [Math.floor((settings.rows - 1) / 2), Math.floor((settings.cols - 1) / 2)];
    showSettings(settings);
    const address = link(settings);
    history.replaceState(null, "", address);
    $("share").href = address;
    $("share").hidden = false;
    $("result").hidden = true;
    state.view = answer.data;
    draw();
    board.dataset.busy = "0";
    cpsolve.show(document.querySelector("section.view"));
  }

  // No game in play: no board, and a header that says so.
  function noGame() {
    state.settings = null;
    state.view = null;
    state.cells = [];
    board.replaceChildren();
    delete board.dataset.outcome;
    $("mines-left").textContent = "–";
    $("outcome").textContent = "no game";
    $("outcome").className = "big";
    $("deal").textContent = "choose a board and press New game";
    $("share").hidden = true;
    for (const id of ["pointer", "verdict", "advice"]) $(id).textContent = "";
  }

  async function refresh(judge) {
    if (!state.settings) return;
    const asked = ++state.asked;
    const settings = state.settings;
    const body = {
      ...state.settings,
      moves: state.moves,
      chances: state.showChances,
      hint: state.showHint,
      judge: judge || "last",
    };
    $("problem").textContent = "";
    board.dataset.busy = "1"; // for the tests: "0" once the answer is drawn
    const answer = await cpsolve.ask("/api/game", body);
    if (asked !== state.asked || settings !== state.settings) return; // a later answer is on its way
    if (!answer.ok) {
      $("problem").textContent = answer.data.error || "the server refused the request";
      board.dataset.busy = "0";
      return;
    }
    state.view = answer.data;
    state.judgedAll = judge === "all";
    draw();
    if (state.view.outcome !== "playing") {
      if (state.ended === null) state.ended = performance.now();
      if (!state.judgedAll) {
        refresh("all");
        return;
      }
    } else {
      state.ended = null;
    }
    board.dataset.busy = "0";
  }

  const SHOWN = { "-": "covered", F: "flag", "*": "mine", "!": "exploded", x: "wrongflag" };

  function draw() {
    const view = state.view;
    board.dataset.outcome = view.outcome;
    for (let r = 0; r < view.rows; r++) {
      for (let c = 0; c < view.cols; c++) {
        const cell = state.cells[r][c];
        cpsolve.clear(cell);
        const shown = view.board[r][c];
        if (shown in SHOWN) {
          cell.dataset.state = SHOWN[shown];
          cell.textContent = { flag: "⚑", mine: "✱", exploded: "✱", wrongflag: "✗" }[SHOWN[shown]] || "";
          if (shown === "!") cell.title = "the mine hit";
          if (shown === "x") cell.title = "a flag on a safe cell";
        } else {
          cell.dataset.state = "cleared";
          cpsolve.number(cell, Number(shown));
        }
      }
    }
    if (!view.moves.length) {
      // the cell the board was dealt for: safe for certain, the first to click
      const first = state.cells[view.first[0] - 1][view.first[1] - 1];
      first.classList.add("first");
      first.title = "the cell the board was dealt for: safe, click it first";
      cpsolve.mark(first, cpsolve.SAFE);
    }
    const [cr, cc] = state.cursor;
    state.cells[cr][cc].classList.add("cursor");
    if (view.chances) {
      for (const item of view.chances.cells) {
        const cell = state.cells[item.cell[0] - 1][item.cell[1] - 1];
        if (cell.dataset.state === "covered") cpsolve.chance(cell, item.value, item.exact);
        else {
          cell.dataset.chance = String(item.value);
          cell.dataset.exact = item.exact;
        }
      }
    }
    $("chance-key").hidden = !view.chances;
    drawHint(view.hint);
    drawVerdict(view.moves[view.moves.length - 1]);
    $("mines-left").textContent = view.mines_left;
    $("outcome").textContent = view.outcome;
    $("outcome").className = "big " + view.outcome;
    const dealt = view.no_guess ? `no-guess for ${view.no_guess}` : "uniform";
    $("deal").textContent =
      `${view.rows}×${view.cols}, ${cpsolve.counted(view.mines, "mine")} · ${dealt} · ${view.start} start · seed ${view.seed}`;
    $("chances").classList.toggle("on", state.showChances);
    $("hint").classList.toggle("on", state.showHint);
    drawResult(view);
    tick();
  }

  function drawHint(hint) {
    if (!state.showHint || !hint) {
      $("advice").textContent = "";
      return;
    }
    // the hint's letters, on the covered cells (a flagged mine keeps its flag, ringed)
    const mark = (cells, kind, letter) => {
      for (const [r, c] of cells) {
        const cell = state.cells[r - 1][c - 1];
        cell.classList.add("hint-" + kind);
        cell.dataset.hint = kind;
        if (cell.dataset.state === "covered") cpsolve.mark(cell, letter);
      }
    };
    mark(hint.safe, "safe", cpsolve.SAFE);
    mark(hint.mines, "mine", cpsolve.MINE);
    if (hint.guess) {
      mark([hint.guess], "guess", cpsolve.GUESS);
      const chance = cpsolve.chanceText(hint.safety.value, hint.safety.exact);
      $("advice").textContent = `hint: guess ${cpsolve.where(hint.guess)} (${cpsolve.GUESS}), safe with chance ${chance}: ${hint.reason}`;
    } else {
      const safe = `${cpsolve.counted(hint.safe.length, "cell")} safe for certain (${cpsolve.SAFE})`;
      const mines = `${cpsolve.counted(hint.mines.length, "mine")} for certain (${cpsolve.MINE})`;
      $("advice").textContent = `hint: ${safe}, ${mines}: ${hint.reason}`;
    }
  }

  function drawVerdict(move) {
    const verdict = $("verdict");
    if (!move || move.action === "flag") {
      verdict.textContent = "";
      return;
    }
    if (!move.safety) {
      verdict.textContent = "was that a guess? not judged (time limit)";
      return;
    }
    if (move.safety.value === 0) {
      // no guess (the server does not count it as one): what was shown said it was a mine
      const mine = move.action === "chord" ? "the chord opened a mine for certain" : "it was a mine for certain";
      verdict.textContent = `was that a guess? no: ${mine} from what was shown`;
      return;
    }
    if (!move.guess) {
      verdict.textContent = "was that a guess? no: certain from what was shown";
      return;
    }
    const what = move.action === "chord" ? "the chord's cells were" : "it was";
    const held = move.exploded.length ? "and it hit a mine" : "and it held";
    verdict.textContent = `was that a guess? yes: ${what} safe with chance ${cpsolve.chanceText(move.safety.value, move.safety.exact)}, ${held}`;
  }

  function seconds() {
    if (state.started === null) return 0;
    return ((state.ended !== null ? state.ended : performance.now()) - state.started) / 1000;
  }

  function tick() {
    $("time").textContent = Math.floor(seconds());
  }

  function drawResult(view) {
    const result = $("result");
    if (view.outcome === "playing") {
      result.hidden = true;
      return;
    }
    const time = seconds();
    const rate = view.outcome === "won" && time > 0 ? (view.bbbv / time).toFixed(2) : "–";
    // the guesses: the moves judged neither certain to be safe nor certain to be a mine (the server's count takes a
    // click on a certain mine for a guess; the verdict line says it was none)
    const guesses = state.judgedAll
      ? String(view.moves.filter((move) => move.guess && move.safety && move.safety.value > 0).length)
      : "…";
    result.hidden = false;
    result.innerHTML =
      `<strong class="${view.outcome}">${view.outcome === "won" ? "WON" : "LOST"}</strong>` +
      `<dl><dt>time</dt><dd>${time.toFixed(1)} s</dd><dt>3BV</dt><dd id="bbbv">${view.bbbv}</dd>` +
      `<dt>3BV/s</dt><dd id="bbbv-rate">${rate}</dd><dt>clicks</dt><dd>${view.clicks}</dd>` +
      `<dt>guesses made</dt><dd id="guesses">${guesses}</dd><dt>undos</dt><dd>${view.undos}</dd></dl>` +
      `<span class="muted">r: the same board again · n: a new board · u: undo</span>`;
  }

  function stateAt(r, c) {
    return state.cells[r][c].dataset.state;
  }

  function play(action, r, c) {
    const view = state.view;
    if (!view || state.dealing || (view.outcome !== "playing" && action !== "undo")) return;
    if (action !== "undo") {
      const shown = stateAt(r, c);
      if (action === "reveal" && shown !== "covered") return;
      if (action === "flag" && shown !== "covered" && shown !== "flag") return;
      if (action === "chord" && shown !== "cleared") return;
      state.cursor = [r, c];
      state.moves.push({ action, cell: [r + 1, c + 1] });
      if (state.started === null) state.started = performance.now();
    } else {
      if (!view.moves.length) return;
      state.moves.push({ action: "undo" });
    }
    refresh();
  }

  function click(r, c) {
    play(stateAt(r, c) === "cleared" ? "chord" : "reveal", r, c);
  }

  async function playHint() {
    if (!state.view || state.dealing || state.view.outcome !== "playing") return;
    if (!state.view.hint) {
      state.showHint = true;
      await refresh();
    }
    const hint = state.view.hint;
    if (!hint) return;
    const covered = hint.safe.filter(([r, c]) => stateAt(r - 1, c - 1) === "covered");
    const unflagged = hint.mines.filter(([r, c]) => stateAt(r - 1, c - 1) === "covered");
    const moves = covered.length
      ? covered.map((cell) => ({ action: "reveal", cell }))
      : unflagged.length
        ? unflagged.map((cell) => ({ action: "flag", cell }))
        : hint.guess
          ? [{ action: "reveal", cell: hint.guess }]
          : [];
    if (!moves.length) return;
    if (state.started === null) state.started = performance.now();
    state.moves.push(...moves);
    refresh();
  }

  board.addEventListener("mousedown", (event) => {
    const at = cpsolve.cellOf(event);
    if (!at) return;
    board.focus();
    if (event.button === 1) {
      event.preventDefault();
      play("chord", at.row, at.col);
    }
  });
  board.addEventListener("click", (event) => {
    const at = cpsolve.cellOf(event);
    if (at) click(at.row, at.col);
  });
  board.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    const at = cpsolve.cellOf(event);
    if (at) play("flag", at.row, at.col);
  });
  board.addEventListener("mouseover", (event) => {
    const at = cpsolve.cellOf(event);
    if (!at) return;
    const cell = at.element;
    const place = `row ${at.row + 1}, col ${at.col + 1}`;
    $("pointer").textContent = cell.dataset.chance
      ? `${place}: chance of a mine ${cpsolve.chanceText(Number(cell.dataset.chance), cell.dataset.exact)}`
      : place;
  });

  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || !state.view) return;
    const [r, c] = state.cursor;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in moves) {
      const [dr, dc] = moves[event.key];
      state.cursor = [
        Math.min(Math.max(r + dr, 0), state.view.rows - 1),
        Math.min(Math.max(c + dc, 0), state.view.cols - 1),
      ];
      draw();
    } else if (event.key === " " || event.key === "Enter") click(r, c);
    else if (event.key === "f") play("flag", r, c);
    else if (event.key === "d") play("chord", r, c);
    else if (event.key === "u") play("undo");
    else if (event.key === "h") toggleHint();
    else if (event.key === "a") playHint();
    else if (event.key === "c") toggleChances();
    else if (event.key === "r") newGame(state.settings);
    else if (event.key === "n") newGame({ ...state.settings, seed: (state.settings.seed + 1) % 2147483648 });
    else return;
    event.preventDefault();
  });

  function toggleHint() {
    if (!state.view) return;
    state.showHint = !state.showHint;
    refresh();
  }

  function toggleChances() {
    if (!state.view) return;
    state.showChances = !state.showChances;
    refresh();
  }

  $("level").addEventListener("change", () => ($("custom").hidden = $("level").value !== "custom"));
  $("new").addEventListener("click", () => newGame(settingsFromControls()));
  $("again").addEventListener("click", () => state.settings && newGame(state.settings));
  $("undo").addEventListener("click", () => play("undo"));
  $("hint").addEventListener("click", toggleHint);
  $("play-hint").addEventListener("click", playHint);
  $("chances").addEventListener("click", toggleChances);
  setInterval(tick, 250);
  cpsolve.chanceKey($("chance-key"), true);

  newGame(settingsFromAddress() || settingsFromControls());
})();
