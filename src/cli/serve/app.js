// The Sokoban web player. Talks to the server only through its JSON API (/api/...).
"use strict";

const $ = (id) => document.getElementById(id);
const DIRS = { u: [-1, 0], r: [0, 1], d: [1, 0], l: [0, -1] };

// The level being played: static squares, the solved rule and what to send to the solver.
let level = null; // { h, w, wall: bool[][], goal: bool[][], inside: bool[][], rule, source, title }
let pos = null; // { player: [r, c], boxes: Set of "r,c" }
let history = []; // { move, pos } for undo
let future = []; // for redo
let anim = null; // { moves: "lurd...", i, timer }
let solving = null; // the running solve's AbortController (Cancel aborts it; the server then stops)

async function api(method, path, body, signal) {
  const opts = { method, headers: {}, signal };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: res.statusText || "bad response" }; }
  if (!res.ok) {
    const err = new Error(data.error || res.statusText);
    err.line = data.line; err.column = data.column; err.status = res.status;
    throw err;
  }
  return data;
}

const key = (r, c) => r + "," + c;

// Builds a level from XSB rows (as the server writes them) plus metadata.
function levelFromXsb(xsb, meta) {
  const rows = xsb.replace(/\n+$/, "").split("\n");
  const h = rows.length, w = Math.max(...rows.map((r) => r.length));
  const wall = [], goal = [], inside = [];
  const boxes = new Set();
  let player = [0, 0];
  for (let r = 0; r < h; r++) {
    wall.push([]); goal.push([]); inside.push([]);
    for (let c = 0; c < w; c++) {
      const ch = rows[r][c] || " ";
      wall[r].push(ch === "#");
      goal[r].push(ch === "." || ch === "*" || ch === "+");
      inside[r].push(false);
      if (ch === "$" || ch === "*") boxes.add(key(r, c));
      if (ch === "@" || ch === "+") player = [r, c];
    }
  }
  // The squares the player can reach ignoring boxes are the inside of the level.
  const stack = [player];
  inside[player[0]][player[1]] = true;
  while (stack.length) {
    const [r, c] = stack.pop();
    for (const [dr, dc] of Object.values(DIRS)) {
      const nr = r + dr, nc = c + dc;
      if (nr >= 0 && nc >= 0 && nr < h && nc < w && !wall[nr][nc] && !inside[nr][nc]) {
        inside[nr][nc] = true; stack.push([nr, nc]);
      }
    }
  }
  for (const k of boxes) { const [r, c] = k.split(",").map(Number); inside[r][c] = true; }
  level = { h, w, wall, goal, inside, rule: meta.rule || "standard", source: meta.source, title: meta.title || "" };
  pos = { player, boxes };
  history = []; future = [];
  stopAnimation(true);
  $("level-title").textContent = level.title;
  $("solve-info").textContent = "";
  drawBoard(true);
  update();
}

function isSolved(p) {
  let boxes = 0, onGoal = 0, goals = 0;
  for (const k of p.boxes) { boxes++; const [r, c] = k.split(",").map(Number); if (level.goal[r][c]) onGoal++; }
  for (let r = 0; r < level.h; r++) for (let c = 0; c < level.w; c++) if (level.goal[r][c]) goals++;
  if (level.rule === "all-goals") return goals > 0 && onGoal === goals;
  if (level.rule === "all-boxes") return onGoal === boxes;
  return boxes === goals && onGoal === boxes;
}

// One step; returns the new position and whether it pushed, or null when illegal.
function step(p, d) {
  const [dr, dc] = DIRS[d];
  const [r, c] = p.player;
  const nr = r + dr, nc = c + dc;
  const free = (rr, cc) => rr >= 0 && cc >= 0 && rr < level.h && cc < level.w && !level.wall[rr][cc];
  if (!free(nr, nc)) return null;
  if (p.boxes.has(key(nr, nc))) {
    const br = nr + dr, bc = nc + dc;
    if (!free(br, bc) || p.boxes.has(key(br, bc))) return null;
    const boxes = new Set(p.boxes);
    boxes.delete(key(nr, nc)); boxes.add(key(br, bc));
    return { pos: { player: [nr, nc], boxes }, push: true };
  }
  return { pos: { player: [nr, nc], boxes: p.boxes }, push: false };
}

function move(d, fromSolver) {
  if (!level) return false;
  if (!fromSolver) stopAnimation(false);
  const s = step(pos, d);
  if (!s) return false;
  history.push({ move: s.push ? d.toUpperCase() : d, pos });
  future = [];
  pos = s.pos;
  update();
  return true;
}

function undo() { stopAnimation(false); if (!history.length) return; const h = history.pop(); future.push({ move: h.move, pos }); pos = h.pos; update(); }
function redo() { stopAnimation(false); if (!future.length) return; const f = future.pop(); history.push({ move: f.move, pos }); pos = step(pos, f.move.toLowerCase()).pos; update(); }
function restart() {
  stopAnimation(false);
  if (!history.length) return;
  future = []; pos = history[0].pos; history = []; update();
}

// Walks to a square along a shortest path without pushing, or steps/pushes towards a neighbour.
function clickSquare(r, c) {
  if (!level || anim && anim.timer) return;
  const [pr, pc] = pos.player;
  for (const [d, [dr, dc]] of Object.entries(DIRS)) if (pr + dr === r && pc + dc === c) { move(d); return; }
  const prev = new Map([[key(pr, pc), null]]);
  const queue = [[pr, pc]];
  while (queue.length) {
    const [cr, cc] = queue.shift();
    if (cr === r && cc === c) break;
    for (const [d, [dr, dc]] of Object.entries(DIRS)) {
      const nr = cr + dr, nc = cc + dc, k = key(nr, nc);
      if (nr < 0 || nc < 0 || nr >= level.h || nc >= level.w || level.wall[nr][nc] || pos.boxes.has(k) || prev.has(k)) continue;
      prev.set(k, [key(cr, cc), d]); queue.push([nr, nc]);
    }
  }
  if (!prev.has(key(r, c))) return;
  const path = [];
  for (let k = key(r, c); prev.get(k); k = prev.get(k)[0]) path.push(prev.get(k)[1]);
  path.reverse().forEach((d) => move(d));
}

let cells = [];
function drawBoard(rebuild) {
  const board = $("board");
  if (rebuild) {
    board.innerHTML = "";
    cells = [];
    board.style.gridTemplateColumns = `repeat(${level.w}, var(--cell))`;
    for (let r = 0; r < level.h; r++) {
      cells.push([]);
      for (let c = 0; c < level.w; c++) {
        const el = document.createElement("div");
        el.className = "cell";
        el.dataset.r = r; el.dataset.c = c;
        el.addEventListener("click", () => clickSquare(r, c));
        board.appendChild(el);
        cells[r].push(el);
      }
    }
    fitBoard();
  }
  for (let r = 0; r < level.h; r++) for (let c = 0; c < level.w; c++) {
    const cl = ["cell"];
    if (level.wall[r][c]) cl.push("wall"); else if (level.inside[r][c]) cl.push("floor");
    if (level.goal[r][c]) cl.push("goal");
    if (pos.boxes.has(key(r, c))) cl.push("box");
    if (pos.player[0] === r && pos.player[1] === c) cl.push("player");
    cells[r][c].className = cl.join(" ");
  }
}

function fitBoard() {
  if (!level) return;
  const wrap = $("board-wrap");
  const size = Math.max(8, Math.floor(Math.min((wrap.clientWidth - 16) / level.w, (wrap.clientHeight - 16) / level.h, 64)));
  $("board").style.setProperty("--cell", size + "px");
  for (const row of cells) for (const el of row) { el.style.width = size + "px"; el.style.height = size + "px"; }
}
window.addEventListener("resize", fitBoard);

function update() {
  drawBoard(false);
  const moves = history.length, pushes = history.filter((h) => h.move === h.move.toUpperCase()).length;
  $("moves").textContent = moves;
  $("pushes").textContent = pushes;
  const solved = isSolved(pos);
  const status = $("status");
  status.classList.toggle("solved", solved);
  $("board").classList.toggle("solved", solved);
  if (solved) status.textContent = `Level solved in ${moves} moves and ${pushes} pushes!`;
  else if (anim) status.textContent = `Playing the solver's solution: move ${anim.i} of ${anim.moves.length}`;
  else status.textContent = moves ? "Keep going…" : "Ready: use the arrow keys, WASD or click a square.";
}

// ---- sets and levels ----
async function loadSets() {
  const data = await api("GET", "/api/sets");
  const sel = $("set");
  sel.innerHTML = "";
  for (const s of data.sets) {
    const o = document.createElement("option");
    o.value = s.id; o.textContent = `${s.name} (${s.count})`; o.dataset.count = s.count;
    sel.appendChild(o);
  }
  const params = new URLSearchParams(location.search);
  if (params.has("set")) sel.value = params.get("set");
  $("level-num").value = params.get("level") || 1;
  await loadSetLevel();
}

async function loadSetLevel() {
  const sel = $("set");
  const count = Number(sel.selectedOptions[0]?.dataset.count || 1);
  let n = Math.min(Math.max(1, Number($("level-num").value) || 1), count);
  $("level-num").value = n; $("level-num").max = count;
  try {
    const data = await api("GET", `/api/sets/${sel.value}/${n}`);
    levelFromXsb(data.xsb, { rule: data.rule, source: data.xsb, title: `${data.set} ${n}${data.title && data.title !== String(n) ? " · " + data.title : ""}` });
  } catch (e) {
    $("status").textContent = "Cannot load the level: " + e.message;
  }
}

async function loadText(text) {
  const err = $("level-error");
  err.textContent = "";
  try {
    const data = await api("POST", "/api/convert", { level: text });
    levelFromXsb(data.xsb, { rule: data.rule, source: text, title: data.title || "Pasted level" });
    $("board").focus(); // the keys play the new level at once
    return true;
  } catch (e) {
    err.textContent = (e.line ? `Line ${e.line}, column ${e.column}: ` : "") + e.message;
    return false;
  }
}

async function showCurrent(to) {
  if (!level) return;
  try {
    const data = await api("POST", "/api/convert", { level: level.source, rule: level.rule, to });
    $("level-text").value = to === "json" ? JSON.stringify(data.grid) .replace(/\],\[\[/g, "],\n [[") : data.xsb;
    $("level-error").textContent = "";
  } catch (e) { $("level-error").textContent = e.message; }
}

// ---- solver and animation ----
async function solve() {
  if (!level) return;
  stopAnimation(false);
  const btn = $("solve");
  btn.disabled = true;
  const info = $("solve-info");
  info.textContent = "Solving…";
  const asked = level;
  const limit = Number($("time-limit").value) || 10;
  solving = new AbortController();
  $("solve-cancel").disabled = false;
  try {
    const r = await api("POST", "/api/solve", { level: level.source, rule: level.rule, mode: $("mode").value, time_limit: limit }, solving.signal);
    if (level !== asked) { info.textContent = ""; return; } // another level was loaded meanwhile
    // The server caps every solve at its --max-time: say so when it lowered the limit asked.
    const lowered = r.time_limit < limit ? ` The server lowered the time limit to ${r.time_limit} s.` : "";
    if (r.status !== "solved") {
      info.textContent = `The solver stopped: ${r.status} after ${r.nodes} nodes, ${r.seconds.toFixed(2)} s.${lowered}`;
      return;
    }
    info.textContent = `Solution: ${r.moves} moves, ${r.pushes} pushes${r.optimal ? ", optimal in " + r.optimal : ""} (${r.nodes} nodes, ${r.seconds.toFixed(2)} s).${lowered}`;
    // Replay from the start.
    if (history.length) { pos = history[0].pos; history = []; future = []; }
    anim = { moves: r.lurd, i: 0, timer: null };
    $("anim-play").disabled = false; $("anim-step").disabled = false;
    update();
    playAnimation();
  } catch (e) {
    info.textContent = e.name === "AbortError" ? "Cancelled." : "Solve failed: " + e.message;
  } finally {
    btn.disabled = false;
    solving = null;
    $("solve-cancel").disabled = true;
  }
}

// The time limit field follows the server's cap (GET /api/status's max_time).
async function loadLimits() {
  const s = await api("GET", "/api/status");
  const field = $("time-limit");
  field.max = s.max_time;
  if (Number(field.value) > s.max_time) field.value = s.max_time;
  $("time-note").textContent = `(at most ${s.max_time} s on this server)`;
}

function animStep() {
  if (!anim) return false;
  if (anim.i >= anim.moves.length) { pauseAnimation(); return false; }
  const d = anim.moves[anim.i++].toLowerCase();
  move(d, true);
  if (anim.i >= anim.moves.length) pauseAnimation();
  update();
  return true;
}
function playAnimation() {
  if (!anim) return;
  if (anim.i >= anim.moves.length) { pos = history.length ? history[0].pos : pos; history = []; future = []; anim.i = 0; }
  clearInterval(anim.timer);
  const tick = () => { if (anim) { animStep(); } };
  anim.timer = setInterval(tick, 1000 / Number($("anim-speed").value));
  $("anim-play").textContent = "Pause";
}
function pauseAnimation() {
  if (!anim) return;
  clearInterval(anim.timer); anim.timer = null;
  $("anim-play").textContent = "Play";
}
// Playing by hand ends the animation; loading a level forgets it.
function stopAnimation(forget) {
  if (!anim) return;
  pauseAnimation();
  if (forget) { anim = null; $("anim-play").disabled = true; $("anim-step").disabled = true; }
  else anim = null;
}

// ---- level builder ----
// The grid is one focusable element (role="grid"): the arrow keys move a cursor square, which
// aria-activedescendant names to screen readers; mouse, pen and touch paint directly.
let bw = 7, bh = 7, bgrid = [], bcells = [], painting = false, bcur = [1, 1];
const TOOLS = ["wall", "floor", "box", "goal", "player", "box-goal", "player-goal"];
const TOOL_NAMES = { wall: "Wall", floor: "Floor", box: "Box", goal: "Goal", player: "Player", "box-goal": "Box on goal", "player-goal": "Player on goal" };
const XSB_TOOL = { "#": "wall", "-": "floor", "_": "floor", "$": "box", ".": "goal", "@": "player", "*": "box-goal", "+": "player-goal" };
const currentTool = () => document.querySelector("input[name=tool]:checked").value;
function setTool(tool) { document.querySelector(`input[name=tool][value="${tool}"]`).checked = true; drawBuilder(); }
function newBuilder() {
  bw = Math.min(40, Math.max(3, Number($("b-width").value) || 7));
  bh = Math.min(40, Math.max(3, Number($("b-height").value) || 7));
  bgrid = [];
  for (let r = 0; r < bh; r++) {
    bgrid.push([]);
    for (let c = 0; c < bw; c++) bgrid[r].push({ wall: r === 0 || c === 0 || r === bh - 1 || c === bw - 1, box: false, goal: false, player: false });
  }
  const g = $("builder-grid");
  g.innerHTML = "";
  g.style.gridTemplateColumns = `repeat(${bw}, 22px)`;
  g.setAttribute("aria-label", `Level builder grid, ${bw} wide and ${bh} high`);
  bcells = [];
  for (let r = 0; r < bh; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    bcells.push([]);
    for (let c = 0; c < bw; c++) {
      const el = document.createElement("div");
      el.className = "cell"; el.dataset.r = r; el.dataset.c = c;
      el.id = `bcell-${r}-${c}`;
      el.setAttribute("role", "gridcell");
      row.appendChild(el);
      bcells[r].push(el);
    }
    g.appendChild(row);
  }
  bcur = [Math.min(1, bh - 1), Math.min(1, bw - 1)];
  drawBuilder();
}
// Pointer events: mouse, pen and touch alike paint by tapping or dragging.
function cellAt(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const cell = el && el.closest("#builder-grid .cell");
  return cell ? [Number(cell.dataset.r), Number(cell.dataset.c)] : null;
}
$("builder-grid").addEventListener("pointerdown", (e) => {
  const at = cellAt(e);
  if (!at) return;
  e.preventDefault();
  $("builder-grid").focus({ preventScroll: true });
  bcur = at;
  painting = at; paint(...at);
});
$("builder-grid").addEventListener("pointermove", (e) => {
  if (!painting) return;
  const at = cellAt(e);
  if (at && (at[0] !== painting[0] || at[1] !== painting[1])) { bcur = at; paintLine(painting, at); }
});
window.addEventListener("pointerup", () => { painting = false; });
window.addEventListener("pointercancel", () => { painting = false; });

// A fast drag skips squares between two mouse events: paint the straight line between them.
function paintLine([r0, c0], [r1, c1]) {
  const n = Math.max(Math.abs(r1 - r0), Math.abs(c1 - c0), 1);
  for (let i = 1; i <= n; i++) paint(Math.round(r0 + (r1 - r0) * i / n), Math.round(c0 + (c1 - c0) * i / n));
  painting = [r1, c1];
}

function paint(r, c, tool = currentTool()) {
  const cell = bgrid[r][c];
  if (tool === "wall") Object.assign(cell, { wall: true, box: false, goal: false, player: false });
  else if (tool === "floor") Object.assign(cell, { wall: false, box: false, goal: false, player: false });
  else if (tool === "box") Object.assign(cell, { wall: false, box: true, player: false });
  else if (tool === "goal") Object.assign(cell, { wall: false, goal: true });
  else if (tool === "box-goal") Object.assign(cell, { wall: false, box: true, goal: true, player: false });
  else if (tool === "player" || tool === "player-goal") {
    for (const row of bgrid) for (const x of row) x.player = false;
    Object.assign(cell, { wall: false, box: false, player: true });
    if (tool === "player-goal") cell.goal = true;
  }
  drawBuilder();
}

// Keys while the builder grid has focus; they never reach the board's player.
function builderKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const [r, c] = bcur;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  let handled = true;
  if (arrows[e.key]) {
    const [dr, dc] = arrows[e.key];
    bcur = [Math.min(bh - 1, Math.max(0, r + dr)), Math.min(bw - 1, Math.max(0, c + dc))];
    if (e.shiftKey) paint(...bcur); else drawBuilder();
  } else if (e.key === "Home") { bcur = [r, 0]; drawBuilder(); }
  else if (e.key === "End") { bcur = [r, bw - 1]; drawBuilder(); }
  else if (e.key === "Enter" || e.key === " ") paint(r, c);
  else if (e.key === "Delete" || e.key === "Backspace") paint(r, c, "floor");
  else if (/^[1-7]$/.test(e.key)) setTool(TOOLS[Number(e.key) - 1]);
  else if (XSB_TOOL[e.key]) { setTool(XSB_TOOL[e.key]); paint(r, c); }
  else handled = false;
  if (handled) e.preventDefault();
}
$("builder-grid").addEventListener("keydown", builderKey);

function builderChar(x) {
  if (x.wall) return "#";
  if (x.player) return x.goal ? "+" : "@";
  if (x.box) return x.goal ? "*" : "$";
  return x.goal ? "." : " ";
}

// Live validation: one player, closed by walls, as many boxes as goals (at least one).
function checkBuilder() {
  const problems = [];
  let players = [], boxes = 0, goals = 0;
  for (let r = 0; r < bh; r++) for (let c = 0; c < bw; c++) {
    const x = bgrid[r][c];
    if (x.player) players.push([r, c]);
    if (x.box) boxes++;
    if (x.goal) goals++;
  }
  if (players.length !== 1) problems.push(players.length ? "more than one player" : "no player: place one");
  if (players.length === 1) {
    const seen = new Set([key(...players[0])]), stack = [players[0]];
    let open = false;
    while (stack.length) {
      const [r, c] = stack.pop();
      if (r === 0 || c === 0 || r === bh - 1 || c === bw - 1) open = true;
      for (const [dr, dc] of Object.values(DIRS)) {
        const nr = r + dr, nc = c + dc;
        if (nr < 0 || nc < 0 || nr >= bh || nc >= bw || bgrid[nr][nc].wall || seen.has(key(nr, nc))) continue;
        seen.add(key(nr, nc)); stack.push([nr, nc]);
      }
    }
    if (open) problems.push("not closed: the player can reach the edge");
  }
  if (boxes === 0) problems.push("no boxes");
  if (boxes !== goals) problems.push(`${counted(boxes, "box", "boxes")} but ${counted(goals, "goal", "goals")}`);
  return { problems, boxes, goals };
}

// `n` with the singular or plural noun ("1 goal", "2 boxes").
function counted(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function squareWords(x) {
  if (x.wall) return "wall";
  const thing = x.player ? "player" : x.box ? "box" : "";
  if (x.goal) return thing ? thing + " on goal" : "goal";
  return thing || "floor";
}

function drawBuilder() {
  const [cr, cc] = bcur;
  for (let r = 0; r < bh; r++) for (let c = 0; c < bw; c++) {
    const x = bgrid[r][c], cl = ["cell"], el = bcells[r][c];
    if (x.wall) cl.push("wall");
    if (x.goal) cl.push("goal");
    if (x.box) cl.push("box");
    if (x.player) cl.push("player");
    if (r === cr && c === cc) cl.push("cursor");
    const cls = cl.join(" ");
    if (el.className !== cls) el.className = cls;
    const label = `Row ${r + 1}, column ${c + 1}: ${squareWords(x)}`;
    if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
    el.setAttribute("aria-selected", String(r === cr && c === cc));
  }
  $("builder-grid").setAttribute("aria-activedescendant", `bcell-${cr}-${cc}`);
  const tool = currentTool();
  $("builder-at").textContent = `Cursor: row ${cr + 1}, column ${cc + 1} (${squareWords(bgrid[cr][cc])}) · tool: ${TOOL_NAMES[tool]}`;
  const { problems, boxes, goals } = checkBuilder();
  const el = $("builder-check");
  el.className = problems.length ? "bad" : "good";
  el.textContent = problems.length
    ? problems.join("\n")
    : `Valid: ${counted(boxes, "box", "boxes")}, ${counted(goals, "goal", "goals")}, closed.`;
}

function builderXsb() { return bgrid.map((row) => row.map(builderChar).join("").replace(/\s+$/, "")).join("\n") + "\n"; }
function builderJson() {
  const cell = (x) => [x.wall && "wall", x.box && "computer", x.goal && "target", x.player && "player"].filter(Boolean);
  return "[\n" + bgrid.map((row) => " " + JSON.stringify(row.map(cell))).join(",\n") + "\n]\n";
}

// ---- wiring ----
// Keys belong to the board unless a control that uses them has focus: text boxes, selects, the
// builder grid, and the arrow keys of radio buttons and the speed slider. Escape in a text box
// hands the keys back to the board.
function typing(e) { const t = e.target.tagName; return t === "TEXTAREA" || (t === "INPUT" && e.target.type !== "radio" && e.target.type !== "range") || t === "SELECT"; }
const ARROW_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && typing(e) && e.target.tagName !== "SELECT") { e.preventDefault(); $("board").focus(); return; }
  if (typing(e) || e.ctrlKey || e.metaKey || e.altKey || e.target.closest("#builder-grid")) return;
  if (ARROW_KEYS.has(e.key) && e.target.tagName === "INPUT") return; // radio buttons, speed slider
  const map = { ArrowUp: "u", ArrowRight: "r", ArrowDown: "d", ArrowLeft: "l", w: "u", d: "r", s: "d", a: "l", W: "u", D: "r", S: "d", A: "l" };
  if (map[e.key]) { e.preventDefault(); move(map[e.key]); }
  else if (e.key === "z" || e.key === "Z" || e.key === "u" || e.key === "U") { e.preventDefault(); undo(); }
  else if (e.key === "y" || e.key === "Y") { e.preventDefault(); redo(); }
  else if (e.key === "r" || e.key === "R") { e.preventDefault(); restart(); }
  else if (e.key === " " && e.target === $("board")) e.preventDefault(); // no page scroll while playing
});
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("restart").addEventListener("click", restart);
$("set").addEventListener("change", () => { $("level-num").value = 1; loadSetLevel(); });
$("level-num").addEventListener("change", loadSetLevel);
$("prev").addEventListener("click", () => { $("level-num").value = Number($("level-num").value) - 1; loadSetLevel(); });
$("next").addEventListener("click", () => { $("level-num").value = Number($("level-num").value) + 1; loadSetLevel(); });
$("load-level").addEventListener("click", () => loadText($("level-text").value));
$("show-json").addEventListener("click", () => showCurrent("json"));
$("show-xsb").addEventListener("click", () => showCurrent("xsb"));
$("solve").addEventListener("click", solve);
$("solve-cancel").addEventListener("click", () => { if (solving) solving.abort(); });
$("anim-play").addEventListener("click", () => { if (anim && anim.timer) pauseAnimation(); else playAnimation(); });
$("anim-step").addEventListener("click", () => { if (anim) { pauseAnimation(); animStep(); } });
$("anim-speed").addEventListener("input", () => { if (anim && anim.timer) playAnimation(); });
$("b-new").addEventListener("click", newBuilder);
for (const id of ["b-width", "b-height"]) $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); newBuilder(); } });
for (const r of document.querySelectorAll("input[name=tool]")) r.addEventListener("change", drawBuilder);
$("export-xsb").addEventListener("click", () => { $("level-text").value = builderXsb(); });
$("export-json").addEventListener("click", () => { $("level-text").value = builderJson(); });
$("builder-play").addEventListener("click", async () => { const t = builderXsb(); $("level-text").value = t; if (await loadText(t)) window.scrollTo(0, 0); });
newBuilder();
loadSets().catch((e) => { $("status").textContent = "Cannot reach the server: " + e.message; });
loadLimits().catch(() => {}); // the field keeps its own bounds when the server does not answer
