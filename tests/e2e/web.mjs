// End-to-end tests of the web player (`sokoban serve`) in headless Chromium, driven through
// chromedriver's W3C WebDriver protocol with Node's built-in fetch (no npm packages, no browser
// download: Debian's `chromium` and `chromium-driver`). Run by .ci/run:
//
//   node tests/e2e/web.mjs [path/to/sokoban]
//
// Screenshots of each step go to target/e2e/. Exits 0 when every step passes, 1 on a failure,
// and 0 with a loud SKIPPED message only when chromium or chromedriver is absent.

import { spawn, spawnSync } from "node:child_process";
import { readFileSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";

const bin = process.argv[2] || "target/release/sokoban";
const shots = "target/e2e";
mkdirSync(shots, { recursive: true });

function which(name) {
  const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}
const chromium = process.env.CHROMIUM || which("chromium") || which("chromium-browser");
const driverBin = process.env.CHROMEDRIVER || which("chromedriver");
if (!chromium || !driverBin) {
  console.error("\n!!!!!!!! SKIPPED: the web player's browser tests need chromium and chromedriver " +
    "(Debian: apt-get install chromium chromium-driver); not found. !!!!!!!!\n");
  process.exit(0);
}
if (!existsSync(bin)) { console.error(`no binary at ${bin}: build with cargo build --release`); process.exit(1); }

const freePort = () => new Promise((ok) => { const s = createServer(); s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); }); });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const children = [];
function cleanup() { for (const c of children) { try { c.kill(); } catch (e) { /* gone */ } } }
process.on("exit", cleanup);

// The server, on a free port; its first line of output gives the address.
const server = spawn(bin, ["serve", "--port", "0", "--max-time", "20"], { stdio: ["ignore", "pipe", "inherit"] });
children.push(server);
const base = await new Promise((ok, fail) => {
  let buf = "";
  server.stdout.on("data", (d) => { buf += d; const m = buf.match(/http:\/\/\S+\//); if (m) ok(m[0]); });
  server.on("exit", (code) => fail(new Error(`sokoban serve exited with ${code}`)));
});

const driverPort = await freePort();
const driver = spawn(driverBin, [`--port=${driverPort}`], { stdio: "ignore" });
children.push(driver);
const wd = `http://127.0.0.1:${driverPort}`;
for (let i = 0; ; i++) {
  try { if ((await fetch(wd + "/status")).ok) break; } catch (e) { /* not yet */ }
  if (i > 100) throw new Error("chromedriver did not start");
  await sleep(100);
}

async function call(method, path, body) {
  const res = await fetch(wd + path, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(data.value).slice(0, 300)}`);
  return data.value;
}

const session = await call("POST", "/session", {
  capabilities: { alwaysMatch: { browserName: "chrome", "goog:chromeOptions": {
    binary: chromium, args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"] } } },
});
const S = `/session/${session.sessionId}`;
const ELEMENT = "element-6066-11e4-a52a-4a1d2b9dfd4d";

const findRef = (css) => call("POST", S + "/element", { using: "css selector", value: css });
const find = async (css) => { const v = await call("POST", S + "/element", { using: "css selector", value: css }); return v[ELEMENT] || v.ELEMENT || Object.values(v)[0]; };
const click = async (css) => call("POST", `${S}/element/${await find(css)}/click`, {});
const text = async (css) => call("GET", `${S}/element/${await find(css)}/text`);
const script = (src, ...args) => call("POST", S + "/execute/sync", { script: src, args });
const KEYS = { u: "\uE013", r: "\uE014", d: "\uE015", l: "\uE012" };
async function press(keys) {
  const actions = [];
  for (const k of keys) actions.push({ type: "keyDown", value: k }, { type: "keyUp", value: k });
  await call("POST", S + "/actions", { actions: [{ type: "key", id: "kb", actions }] });
}
// Keys held together, such as Shift+Tab or Ctrl+A.
async function chord(keys) {
  const actions = [...keys.map((k) => ({ type: "keyDown", value: k })), ...[...keys].reverse().map((k) => ({ type: "keyUp", value: k }))];
  await call("POST", S + "/actions", { actions: [{ type: "key", id: "kb", actions }] });
}
const TAB = "\uE004", SHIFT = "\uE008", CTRL = "\uE009", ENTER = "\uE007", ESCAPE = "\uE00C", BACKSPACE = "\uE003";
// What has the keyboard focus: an id, "summary:<text>" or "input:<name>".
const active = () => script(`const a = document.activeElement;
  if (!a || a === document.body) return "body";
  if (a.id) return a.id;
  if (a.tagName === "SUMMARY") return "summary:" + a.textContent.trim();
  return a.tagName.toLowerCase() + ":" + (a.name || "");`);
async function tabTo(want, max = 60) {
  for (let i = 0; i < max; i++) {
    await press([TAB]);
    if ((await active()) === want) return;
  }
  throw new Error(`Tab never reached ${want}`);
}
const arrows = (lurd) => [...lurd.toLowerCase()].map((c) => KEYS[c]);
const wasd = (lurd) => [...lurd.toLowerCase()].map((c) => ({ u: "w", l: "a", d: "s", r: "d" })[c]);
let shot = 0;
async function screenshot(name) {
  const png = await call("GET", S + "/screenshot");
  const file = `${shots}/${String(++shot).padStart(2, "0")}-${name}.png`;
  writeFileSync(file, Buffer.from(png, "base64"));
  return file;
}
async function waitFor(what, cond, ms = 10000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting for " + what);
    await sleep(100);
  }
}
const status = () => text("#status");
const counters = async () => [Number(await text("#moves")), Number(await text("#pushes"))];
function check(cond, msg) { if (!cond) throw new Error(msg); }
// The text area is filled as a paste would fill it.
const paste = (value) => script("const t = document.getElementById('level-text'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));", value);

// A solution of Microban 1 from the server's own solver (verified there; checked again here).
async function solutionOf(level) {
  const res = await fetch(base + "api/solve", { method: "POST", body: JSON.stringify({ level, mode: "moves", time_limit: 10 }) });
  const out = await res.json();
  const check2 = await (await fetch(base + "api/verify", { method: "POST", body: JSON.stringify({ level, moves: out.lurd }) })).json();
  check(out.status === "solved" && check2.valid, "no verified solution: " + JSON.stringify(out));
  return out;
}

const results = [];
async function step(name, fn) {
  const t = Date.now();
  try {
    await fn();
    const file = await screenshot(name);
    results.push(`ok   ${name} (${Date.now() - t} ms) ${file}`);
  } catch (e) {
    try { await screenshot(name + "-FAILED"); } catch (e2) { /* no screenshot */ }
    results.push(`FAIL ${name}: ${e.message}`);
  }
}

await call("POST", S + "/url", { url: base + "?set=0&level=1" });
await waitFor("the board", async () => (await status()).startsWith("Ready"));
const m1 = await (await fetch(base + "api/sets/0/1")).json();
const sol = await solutionOf(m1.xsb);

await step("microban-1-solved-with-arrow-keys", async () => {
  check(!(await status()).includes("solved"), "solved before playing");
  await press(arrows(sol.lurd));
  await waitFor("solved", async () => (await status()).includes("solved"));
  const [moves, pushes] = await counters();
  check(moves === sol.moves && pushes === sol.pushes, `counters ${moves}/${pushes}, expected ${sol.moves}/${sol.pushes}`);
});

await step("undo-redo-restart", async () => {
  await press(["z"]);
  const [moves] = await counters();
  check(moves === sol.moves - 1, "undo did not take back one move");
  check(!(await status()).includes("solved"), "still solved after undo");
  await click("#redo");
  check((await status()).includes("solved"), "redo did not solve again");
  await click("#restart");
  // A click on a square walks the player there along a shortest path.
  const target = await script(`
    const cells = [...document.querySelectorAll('#board .cell.floor:not(.box):not(.player)')];
    const far = cells[0]; return [far.dataset.r, far.dataset.c];`);
  await click(`#board .cell[data-r="${target[0]}"][data-c="${target[1]}"]`);
  const cls = await script(`return document.querySelector('#board .cell[data-r="${target[0]}"][data-c="${target[1]}"]').className;`);
  check(cls.includes("player"), "a click did not walk the player to the square: " + cls);
  check((await counters())[0] > 0, "the walk did not count moves");
  await click("#restart");
  const [m, p] = await counters();
  check(m === 0 && p === 0, "restart did not reset the counters");
  check(!(await status()).includes("solved"), "solved after restart");
});

await step("snekoban-json-loaded-and-solved-by-hand", async () => {
  const json = readFileSync("data/snekoban-puzzles/m1_001.json", "utf8");
  await paste(json);
  await click("#load-level");
  await waitFor("the pasted level", async () => (await text("#level-title")) === "Pasted level");
  check((await text("#level-error")) === "", "error on a good level");
  // Hand-scripted with WASD: Snekoban's first puzzle is Microban 1's board.
  const hand = "dlUrrrdLullddrUluRuulDrddrruLdlUU";
  await press(wasd(hand));
  await waitFor("solved", async () => (await status()).includes("solved"));
  check((await counters())[0] === hand.length, "moves counter");
});

await step("builder-level-built-exported-and-played", async () => {
  await click("#builder-box summary");
  await click("#b-new");
  const pick = (tool) => click(`input[name=tool][value=${tool}]`);
  const cell = (r, c) => `#builder-grid .cell[data-r="${r}"][data-c="${c}"]`;
  await pick("player"); await click(cell(3, 1));
  await pick("box"); await click(cell(3, 2));
  check((await text("#builder-check")).includes("0 goals"), "validation did not see the missing goal");
  await pick("goal"); await click(cell(3, 4));
  await pick("wall"); await click(cell(1, 3));
  // A drag paints floor along row 5 and back to wall.
  await pick("floor");
  const origin = async (r, c) => ({ type: "pointerMove", duration: 0, origin: await findRef(cell(r, c)), x: 0, y: 0 });
  await call("POST", S + "/actions", { actions: [{ type: "pointer", id: "mouse", parameters: { pointerType: "mouse" }, actions: [
    await origin(5, 1), { type: "pointerDown", button: 0 }, await origin(5, 3), await origin(5, 5), { type: "pointerUp", button: 0 }] }] });
  check((await text("#builder-check")).startsWith("Valid"), "painting floor inside changed validity");
  await pick("wall");
  await call("POST", S + "/actions", { actions: [{ type: "pointer", id: "mouse", parameters: { pointerType: "mouse" }, actions: [
    await origin(5, 1), { type: "pointerDown", button: 0 }, await origin(5, 3), await origin(5, 5), { type: "pointerUp", button: 0 }] }] });
  const walls = await script(`return [1,2,3,4,5].filter((c) => document.querySelector('#builder-grid .cell[data-r="5"][data-c="' + c + '"]').classList.contains('wall')).length;`);
  check(walls === 5, `a drag painted ${walls} of 5 squares`);
  check((await text("#builder-check")).startsWith("Valid"), "builder says: " + (await text("#builder-check")));
  await click("#export-json");
  const exported = await script("return document.getElementById('level-text').value;");
  check(JSON.parse(exported)[3][1][0] === "player", "JSON export has no player at row 3, column 1");
  await click("#export-xsb");
  const xsb = await script("return document.getElementById('level-text').value;");
  check(xsb.split("\n")[3] === "#@$ . #" && xsb.split("\n")[5] === "#######", "XSB export row: " + JSON.stringify(xsb));
  await click("#builder-play");
  await waitFor("the built level", async () => (await status()).startsWith("Ready"));
  await press(arrows("rr"));
  await waitFor("solved", async () => (await status()).includes("solved"));
});

// Keyboard only from here on to the built level's "solved": no clicks (scripts only read the page).
await step("keyboard-only-every-control-reachable", async () => {
  await call("POST", S + "/url", { url: base + "?set=0&level=1" });
  await waitFor("the board", async () => (await status()).startsWith("Ready"));
  await tabTo("next");
  await press([ENTER]);
  await waitFor("Microban 2", async () => (await text("#level-title")).startsWith("Microban 2"));
  await chord([SHIFT, TAB]);
  check((await active()) === "level-num", "Shift+Tab from the next button: " + (await active()));
  await press([KEYS.d]);
  await waitFor("Microban 1 again", async () => /^Microban 1\b/.test(await text("#level-title")));
  await press([ESCAPE]);
  check((await active()) === "board", "Escape in the level number did not focus the board");
  await press(arrows(sol.lurd[0]));
  check((await counters())[0] === 1, "an arrow key on the focused board did not move");
  await tabTo("undo", 1);
  await press([ENTER]);
  check((await counters())[0] === 0, "Enter on Undo");
  await tabTo("redo", 1);
  await press([" "]);
  check((await counters())[0] === 1, "Space on Redo");
  await tabTo("restart", 1);
  await press([ENTER]);
  check((await counters())[0] === 0, "Enter on Restart");
  // On round the page: every control comes by Tab (the builder opened with Enter on its summary).
  const seen = new Set();
  for (let i = 0; i < 60 && !seen.has("builder-play"); i++) {
    await press([TAB]);
    const a = await active();
    seen.add(a);
    if (a === "summary:Level builder" && !(await script("return document.getElementById('builder-box').open;"))) await press([ENTER]);
  }
  const want = ["mode", "time-limit", "solve", "anim-speed", "summary:Solver", "summary:Level JSON / XSB", "level-text", "load-level",
    "show-json", "show-xsb", "summary:Level builder", "b-width", "b-height", "b-new", "input:tool", "builder-grid", "export-xsb", "export-json", "builder-play"];
  const missing = want.filter((w) => !seen.has(w));
  check(!missing.length, "not reached by Tab: " + missing.join(", ") + "; reached: " + [...seen].join(", "));
});

await step("builder-level-built-by-keyboard-only", async () => {
  const cursor = () => script("const c = document.querySelector('#builder-grid .cell.cursor'); return c && [Number(c.dataset.r), Number(c.dataset.c)];");
  const square = (r, c) => script(`return document.querySelector('#builder-grid .cell[data-r="${r}"][data-c="${c}"]').className;`);
  const tool = () => script("return document.querySelector('input[name=tool]:checked').value;");
  const checkText = () => text("#builder-check");
  await tabTo("b-width");
  await chord([CTRL, "a"]); await press(["6"]);
  await press([TAB]); await chord([CTRL, "a"]); await press(["5", ENTER]);
  check(await script("return document.querySelectorAll('#builder-grid .cell').length;") === 30, "Enter in the height box did not make a 6 by 5 grid");
  await tabTo("input:tool", 2);
  await press([KEYS.r, KEYS.r]); // the radio buttons: wall → floor → box
  check((await tool()) === "box", "arrow keys on the tools chose " + (await tool()));
  await tabTo("builder-grid", 1);
  check(JSON.stringify(await cursor()) === "[1,1]", "cursor not at row 1, column 1: " + (await cursor()));
  await press([KEYS.d, KEYS.r, " "]); // Space places the chosen tool (box)
  await press([KEYS.l, "@"]); // an XSB character chooses its tool and places it
  check((await tool()) === "player", "@ did not choose the player tool");
  check((await checkText()).includes("1 box but 0 goals"), "validation: " + (await checkText()));
  await press([KEYS.r, KEYS.r, KEYS.r, "."]);
  check((await checkText()).startsWith("Valid"), "validation: " + (await checkText()));
  await press(["1", KEYS.u, ENTER]); // wall tool by number, placed by Enter at row 1, column 4
  check((await tool()) === "wall", "key 1 did not choose the wall tool");
  await chord([SHIFT, KEYS.l]); // Shift+arrow places while it moves
  check((await square(1, 3)).includes("wall") && (await square(1, 4)).includes("wall"), "walls at row 1");
  await press([KEYS.d, KEYS.d, "$"]);
  check((await checkText()).includes("2 boxes but 1 goal"), "validation: " + (await checkText()));
  await press([BACKSPACE, "*"]);
  check((await checkText()).startsWith("Valid: 2 boxes, 2 goals"), "validation: " + (await checkText()));
  check(JSON.stringify(await cursor()) === "[3,3]", "cursor at " + (await cursor()));
  check((await active()) === "builder-grid", "the grid lost the focus");
  const [moves] = await counters();
  check(moves === 0 && (await status()).startsWith("Ready"), "builder keys reached the board's player");
  await screenshot("builder-keyboard-cursor");
  await tabTo("export-xsb");
  await press([ENTER]);
  const xsb = await script("return document.getElementById('level-text').value;");
  check(xsb === "######\n#  ###\n#@$ .#\n#  * #\n######\n", "XSB export: " + JSON.stringify(xsb));
  await tabTo("export-json", 1);
  await press([" "]);
  const grid = JSON.parse(await script("return document.getElementById('level-text').value;"));
  check(grid[2][1][0] === "player" && grid[3][3].includes("computer") && grid[3][3].includes("target"), "JSON export: " + JSON.stringify(grid));
  await tabTo("builder-play", 1);
  await press([ENTER]);
  await waitFor("the built level", async () => (await status()).startsWith("Ready") && (await text("#level-title")) === "Pasted level");
  check((await active()) === "board", "the board has no focus after Play it");
  await press(arrows("rr"));
  await waitFor("solved", async () => (await status()).includes("solved"));
  const [m, p] = await counters();
  check(m === 2 && p === 2, `counters ${m}/${p}`);
});

await step("solve-button-animation-reaches-solved", async () => {
  await script("document.getElementById('level-num').value = 3; document.getElementById('level-num').dispatchEvent(new Event('change'));");
  await waitFor("Microban 3", async () => (await text("#level-title")).startsWith("Microban 3"));
  await click("#solve");
  await waitFor("playing", async () => (await status()).includes("Playing"), 30000);
  await screenshot("solve-animation-playing");
  await waitFor("solved by the animation", async () => (await status()).includes("solved"), 60000);
  check((await text("#solve-info")).includes("optimal"), "no solver summary: " + (await text("#solve-info")));
});

await step("time-limit-follows-the-server-and-a-solve-can-be-cancelled", async () => {
  // The server runs with --max-time 20: the field says so and cannot ask for more.
  check((await text("#time-note")).includes("at most 20 s"), "time note: " + (await text("#time-note")));
  check((await script("return document.getElementById('time-limit').max")) === "20", "the field's max is not the server's");
  // A proof that takes far longer than a click: fewest pushes on Microban 144.
  await script("document.getElementById('level-num').value = 144; document.getElementById('level-num').dispatchEvent(new Event('change'));");
  await waitFor("Microban 144", async () => (await text("#level-title")).startsWith("Microban 144"));
  await script("document.getElementById('mode').value = 'pushes';");
  await click("#solve");
  await waitFor("solving", async () => (await text("#solve-info")).includes("Solving"));
  await click("#solve-cancel");
  await waitFor("cancelled", async () => (await text("#solve-info")).includes("Cancelled"));
  // The server stops the search when its client goes away.
  await waitFor("the server's solver slot freed", async () => (await (await fetch(base + "api/status")).json()).running === 0);
  await script("document.getElementById('mode').value = 'auto';");
});

await step("broken-json-shows-error-page-still-works", async () => {
  await paste('[\n  [["wall"], ["wall"]],\n  [["wall"], ["player"\n]');
  await click("#load-level");
  const err = await waitFor("the error", async () => text("#level-error"));
  check(/Line \d+, column \d+/.test(err), "no line and column in: " + err);
  // The page still plays the level it had.
  await click("#restart");
  await press(arrows("l"));
  await press(arrows("r"));
  const [moves] = await counters();
  check(moves >= 1, "keys no longer work after the error");
});

// The README's picture: Microban 5, a few moves in.
await step("readme", async () => {
  await call("POST", S + "/url", { url: base + "?set=0&level=5" });
  await waitFor("Microban 5", async () => (await status()).startsWith("Ready"));
  await press(arrows("ul"));
  check((await counters())[0] === 2, "two moves");
  const file = await screenshot("web-player");
  if (process.env.README_SCREENSHOT) writeFileSync(process.env.README_SCREENSHOT, readFileSync(file));
});

await call("DELETE", S);
console.log(results.join("\n"));
const failed = results.filter((r) => r.startsWith("FAIL")).length;
console.log(failed ? `web player e2e: ${failed} of ${results.length} steps FAILED` : `web player e2e: all ${results.length} steps passed`);
cleanup();
process.exit(failed ? 1 : 0);
