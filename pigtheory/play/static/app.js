/* The play page: the game set-up, the board, the live analysis and the log of moves.
 *
 * The rules are engine.js's, the numbers analysis.js's; this file only shows them. Opponent
 * data is loaded on demand by inserting data/<key>.js (a script calling PigSite.register),
 * which works from file:// as well as from a web server. The set-up is kept in the URL
 * (#mode=...&opponent=...&seed=...&first=...), so a game can be linked and replayed;
 * ?speed=0 makes the opponent move at once (as the tests do).
 */
(function () {
  "use strict";
  const Engine = window.PigEngine;
  const Analysis = window.PigAnalysis;
  const COSTLY = 1e-6; // moves that give away less are ties at the precision of the data (analysis.py)

  const site = { catalog: null, data: new Map(), waiting: new Map(), analysts: new Map() };
  window.PigSite = {
    catalog(obj) {
      site.catalog = obj;
    },
    register(obj) {
      site.data.set(obj.key, obj);
      const w = site.waiting.get(obj.key);
      if (w) {
        site.waiting.delete(obj.key);
        w.resolve(obj);
      }
    },
  };

  function loadAnalyst(entry) {
    if (!site.analysts.has(entry.key)) {
      const p = new Promise((resolve, reject) => {
        if (site.data.has(entry.key)) return resolve(site.data.get(entry.key));
        site.waiting.set(entry.key, { resolve, reject });
        const script = document.createElement("script");
        script.src = entry.file;
        script.onerror = () => reject(new Error("could not load " + entry.file));
        document.head.appendChild(script);
      }).then((obj) => Analysis.analyst(entry, obj));
      site.analysts.set(entry.key, p);
      p.catch(() => site.analysts.delete(entry.key));
    }
    return site.analysts.get(entry.key);
  }

  /* --- helpers --------------------------------------------------------------------- */

  const $ = (id) => document.getElementById(id);
  const pct = (x) => (100 * x).toFixed(2) + "%";
  const points = (x) => (100 * x).toFixed(2) + " percentage points";

  function params() {
    const out = {};
    for (const part of [location.search.slice(1), location.hash.slice(1)]) {
      for (const [k, v] of new URLSearchParams(part)) out[k] = v;
    }
    return out;
  }

  function randomSeed() {
    const a = new Uint32Array(1);
    crypto.getRandomValues(a);
    return a[0];
  }

  /* Whether one die's face busts: with one die the outcome table says so (a die defined in
   * Python by its roll rule has no bust face of its own); with two, the bust face. */
  function bustFace(face, rules) {
    if (rules.dice === 1) return rules.rolls[face - 1][0] === "bust";
    return face === rules.bustFace;
  }

  /* The faces of a roll as a player says them: "4-4", or "heads" for Piglet's coin. */
  function faces(dice, rules) {
    if (rules.dieFaces === 2) return dice.map((f) => (bustFace(f, rules) ? "tails" : "heads")).join("-");
    return dice.join("-");
  }

  function describe(event, mode, rules) {
    const who = event.who === "you" ? "You" : "Opponent";
    const dice = faces(event.dice, rules);
    const s = event.scores;
    if (event.action === "resolve") {
      const [a, b] = event.gains;
      const end = event.outcome === "tie" ? " Both reached the goal: a tie." : "";
      return `Turn over: you +${a}, opponent +${b}; now you ${s[0]}, opponent ${s[1]}.${end}`;
    }
    if (event.action === "hold") {
      if (event.outcome === "pass") return `${who} pass${event.who === "you" ? "" : "es"}.`;
      const verb = event.who === "you" ? "hold" : "holds";
      if (mode === "simultaneous") return `${who} ${verb} at ${event.k}.`;
      return `${who} ${verb} at ${event.k} → ${s[event.who === "you" ? 0 : 1]}.`;
    }
    const verb = event.who === "you" ? "roll" : "rolls";
    const what = {
      bust: "bust, the turn total is lost",
      reset: "snake eyes: the score goes back to 0",
      double: `a double, must roll again (${event.k})`,
      goal: `${event.k}: the goal is reached`,
      score: `turn total ${event.k}`,
    }[event.outcome];
    return `${who} ${verb} ${dice}: ${what}.`;
  }

  /* An SVG die (pips for up to 6 faces, the number otherwise; Piglet's coin shows H or T). */
  function dieSvg(face, rules, who) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 68 68");
    const bust = bustFace(face, rules);
    svg.setAttribute("class", "die rolled" + (bust ? " bust" : "") + (who === "opponent" ? " opp" : ""));
    const rect = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({ x: 3, y: 3, width: 62, height: 62, rx: rules.dieFaces === 2 ? 31 : 10 })) {
      rect.setAttribute(k, v);
    }
    svg.appendChild(rect);
    const pips = {
      1: [[34, 34]],
      2: [[20, 20], [48, 48]],
      3: [[18, 18], [34, 34], [50, 50]],
      4: [[20, 20], [48, 20], [20, 48], [48, 48]],
      5: [[18, 18], [50, 18], [34, 34], [18, 50], [50, 50]],
      6: [[20, 17], [48, 17], [20, 34], [48, 34], [20, 51], [48, 51]],
    };
    if (rules.dieFaces === 2 || face > 6 || rules.dieFaces > 6) {
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", 34);
      text.setAttribute("y", 35);
      text.textContent = rules.dieFaces === 2 ? (bust ? "T" : "H") : String(face);
      svg.appendChild(text);
    } else {
      for (const [cx, cy] of pips[face]) {
        const c = document.createElementNS(ns, "circle");
        c.setAttribute("cx", cx);
        c.setAttribute("cy", cy);
        c.setAttribute("r", 6);
        svg.appendChild(c);
      }
    }
    svg.setAttribute("aria-label", bust ? "bust face " + face : "face " + face);
    return svg;
  }

  function rulesNote(entry) {
    const r = entry.rules;
    const parts = [r.note]; // the rules' own words (Python's Rules.describe_roll)
    if (entry.mode === "simultaneous") {
      parts.push("Both players take their turn at once: yours first, then the opponent's is shown; both totals are added together, and reaching the goal together is a tie.");
    } else {
      parts.push("Hold banks the turn total (at 0 it passes).");
    }
    parts.push(`First to ${r.goal} wins; reaching it ends the turn.`);
    return parts.join(" ");
  }

  /* --- the page ------------------------------------------------------------------ */

  let play = null;
  let token = 0;

  function mode() {
    return document.querySelector('input[name="mode"]:checked').value;
  }

  function entries(m) {
    return site.catalog.opponents.filter((e) => e.mode === m);
  }

  function fillOpponents(preferred) {
    const select = $("opponent");
    select.textContent = "";
    const groups = new Map();
    for (const e of entries(mode())) {
      const label = e.rules.label;
      if (!groups.has(label)) {
        const g = document.createElement("optgroup");
        g.label = label;
        groups.set(label, g);
        select.appendChild(g);
      }
      const o = document.createElement("option");
      o.value = e.key;
      o.textContent = e.name;
      groups.get(label).appendChild(o);
    }
    if (preferred && entries(mode()).some((e) => e.key === preferred)) select.value = preferred;
    $("first-field").hidden = mode() !== "sequential";
  }

  function current() {
    return site.catalog.opponents.find((e) => e.key === $("opponent").value);
  }

  async function newGame() {
    const my = ++token;
    const entry = current();
    let seed = Number($("seed").value);
    if (!Number.isInteger(seed) || seed < 0 || seed >= Engine.TWO32) {
      seed = randomSeed();
      $("seed").value = seed;
    }
    const first = entry.mode === "sequential" ? $("first").value : "you";
    document.body.dataset.phase = "loading";
    $("status").textContent = "Loading " + entry.name + "…";
    $("roll").disabled = $("hold").disabled = true;
    let analyst;
    try {
      analyst = await loadAnalyst(entry);
    } catch (err) {
      $("status").textContent = "Could not load this opponent's data (" + err.message + ").";
      document.body.dataset.phase = "error";
      return;
    }
    if (my !== token) return;
    const opponent =
      entry.mode === "sequential"
        ? { rolls: (own, other, k) => analyst.opponentRoll.at(own, other, k) }
        : { choices: (own, other) => analyst.choices(own, other) };
    const game = new Engine.Game({ rules: entry.rules, mode: entry.mode, seed, first, opponent });
    play = { entry, analyst, game, my, points: [], cost: 0, moves: 0, costly: 0, logged: 0, lastDice: null };
    document.body.dataset.seed = String(seed);
    document.body.dataset.opponent = entry.key;
    $("log").textContent = "";
    $("dice").dataset.shown = "";
    $("about").textContent = entry.about;
    $("rules-note").textContent = rulesNote(entry);
    $("opp-name").textContent = entry.name;
    $("goal").textContent = entry.rules.goal;
    const setup = new URLSearchParams({ mode: entry.mode, opponent: entry.key, seed: String(seed), first });
    history.replaceState(null, "", "#" + setup.toString());
    record(null);
    proceed();
  }

  /* A point of the chart and the log lines of the events since the last call. */
  function record(personMove) {
    const game = play.game;
    const reading = play.analyst.read(game);
    play.points.push({ value: reading.value, mistake: personMove !== null && personMove.cost >= COSTLY });
    const log = $("log");
    for (const event of game.events.slice(play.logged)) {
      if (event.action === "choose") continue;
      const li = document.createElement("li");
      li.className = event.who;
      li.textContent = describe(event, game.mode, game.rules);
      if (personMove && event.who === "you" && personMove.cost >= COSTLY) {
        const c = document.createElement("span");
        c.className = "costly";
        c.textContent = ` Gave away ${points(personMove.cost)}; best was to ${personMove.advice}.`;
        li.appendChild(c);
      }
      log.prepend(li);
      if (event.dice.length) play.lastDice = event;
    }
    const first = log.firstElementChild;
    if (first && play.logged < game.events.length) {
      const p = document.createElement("span");
      p.className = "p";
      p.textContent = pct(reading.value);
      first.prepend(p);
    }
    play.logged = game.events.length;
  }

  function proceed() {
    const game = play.game;
    render();
    if (game.toMove === "opponent") {
      const my = play.my;
      const speed = Number($("speed").value);
      const step = () => {
        if (my !== token) return;
        game.stepOpponent();
        record(null);
        if (game.toMove === "opponent" && speed === 0) return step();
        if (game.toMove === "opponent") {
          render();
          setTimeout(step, speed);
        } else {
          render();
        }
      };
      setTimeout(step, speed);
    }
  }

  function act(move) {
    if (!play) return;
    const game = play.game;
    if (game.toMove !== "you" || (move === "hold" && !game.canHold)) return;
    const reading = play.analyst.read(game);
    let cost = 0;
    if (reading.advice && move !== reading.advice) {
      const chosen = move === "roll" ? reading.roll : reading.hold;
      const best = reading.advice === "roll" ? reading.roll : reading.hold;
      cost = Math.max(0, best - chosen);
    }
    play.cost += cost;
    play.moves += 1;
    if (cost >= COSTLY) play.costly += 1;
    if (move === "roll") game.roll();
    else game.hold();
    record({ cost, advice: reading.advice });
    proceed();
  }

  function setNumber(el, x, text) {
    el.textContent = x === null || x === undefined ? "–" : text || pct(x);
    el.dataset.value = x === null || x === undefined ? "" : String(x);
  }

  function render() {
    const { game, entry, analyst } = play;
    const g = entry.rules.goal;
    const [mine, theirs] = game.scores;
    $("score-you").textContent = mine;
    $("score-opp").textContent = theirs;
    $("bar-you").style.width = (100 * mine) / g + "%";
    $("bar-opp").style.width = (100 * theirs) / g + "%";
    $("turn-total").textContent = game.k;
    $("player-you").classList.toggle("active", game.toMove === "you");
    $("player-opp").classList.toggle("active", game.toMove === "opponent");
    const phase = game.toMove === null ? "over" : game.toMove;
    const body = document.body.dataset;
    body.phase = phase;
    body.turn = String(game.turn);
    body.k = String(game.k);
    body.forced = String(game.forced);
    body.scores = game.scores.join(",");
    body.events = String(game.events.length);
    if (!body.readyMs && phase !== "opponent") body.readyMs = performance.now().toFixed(0);
    let status;
    if (phase === "over") {
      status = { you: "You win!", opponent: "The opponent wins.", tie: "A tie: both reached the goal." }[game.winner];
    } else if (phase === "you") {
      status = game.forced ? "A double: you must roll again." : "Your move.";
      if (entry.mode === "simultaneous" && game.k === 0) status = "Your turn: the opponent takes its turn at the same time, unseen.";
    } else if (entry.mode === "simultaneous") {
      status = `Your turn is over with ${game.gain} points. The opponent's turn: it holds at ${game.threshold} this time.`;
    } else {
      status = "The opponent's turn…";
    }
    $("status").textContent = status;
    $("roll").disabled = phase !== "you";
    $("hold").disabled = !game.canHold;
    const dice = $("dice");
    const last = play.lastDice;
    if (dice.dataset.shown !== String(play.logged)) {
      dice.textContent = "";
      if (last) for (const f of last.dice) dice.appendChild(dieSvg(f, entry.rules, last.who));
      dice.dataset.shown = String(play.logged);
    }
    const r = analyst.read(game);
    setNumber($("win"), r.value);
    const advice = $("advice");
    advice.dataset.advice = r.advice || "";
    advice.textContent = r.advice ? (r.advice === "roll" ? "Roll" : "Hold") : phase === "over" ? "–" : "(opponent's move)";
    setNumber($("roll-value"), r.roll);
    setNumber($("hold-value"), r.hold);
    const cost = $("cost");
    setNumber(cost, play.cost);
    cost.dataset.costly = String(play.costly > 0);
    $("cost-moves").textContent = `${play.costly} of ${play.moves}`;
    drawChart();
  }

  function drawChart() {
    const svg = $("chart");
    const ns = "http://www.w3.org/2000/svg";
    const W = 320;
    const H = 140;
    const left = 36;
    const top = 6;
    const h = H - top - 14;
    const w = W - left - 6;
    svg.textContent = "";
    const add = (name, attrs, text) => {
      const el = document.createElementNS(ns, name);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      if (text) el.textContent = text;
      svg.appendChild(el);
      return el;
    };
    for (const [v, label] of [[1, "100%"], [0.5, "50%"], [0, "0%"]]) {
      const y = top + (1 - v) * h;
      add("line", { x1: left, x2: left + w, y1: y, y2: y, class: v === 0.5 ? "half" : "grid" });
      add("text", { x: left - 4, y: y + 3, "text-anchor": "end", class: "axis" }, label);
    }
    const pts = play.points;
    const n = Math.max(pts.length - 1, 1);
    const xy = pts.map((p, t) => [left + (w * t) / n, top + (1 - p.value) * h]);
    const line = xy.map(([x, y]) => x.toFixed(1) + "," + y.toFixed(1)).join(" ");
    if (xy.length) {
      add("polygon", { points: `${left},${top + h} ${line} ${xy[xy.length - 1][0].toFixed(1)},${top + h}`, class: "area" });
      add("polyline", { points: line, class: "line" });
    }
    pts.forEach((p, t) => {
      if (p.mistake) add("circle", { cx: xy[t][0], cy: xy[t][1], r: 3.2, class: "mistake" });
    });
    add("text", { x: left + w, y: H - 2, "text-anchor": "end", class: "axis" }, `${pts.length - 1} moves`);
  }

  /* Set the controls from the URL's parameters (mode, opponent, seed, first, speed). */
  function applySetup(p) {
    const wanted = site.catalog.opponents.find((e) => e.key === p.opponent);
    const m = p.mode || (wanted ? wanted.mode : mode());
    const radio = document.querySelector(`input[name="mode"][value="${m}"]`);
    if (radio && entries(m).length) radio.checked = true;
    else document.querySelector('input[name="mode"][value="' + site.catalog.opponents[0].mode + '"]').checked = true;
    fillOpponents(p.opponent);
    $("seed").value = p.seed !== undefined && p.seed !== "" ? p.seed : randomSeed();
    $("first").value = p.first === "opponent" ? "opponent" : "you";
    if (p.speed !== undefined && [...$("speed").options].some((o) => o.value === p.speed)) $("speed").value = p.speed;
  }

  function init() {
    if (!site.catalog || !site.catalog.opponents.length) {
      $("status").textContent = "No opponents: build the site with `pigtheory site`.";
      document.body.dataset.phase = "error";
      return;
    }
    applySetup(params());
    window.addEventListener("hashchange", () => {
      applySetup(params());
      newGame();
    });
    const n = site.catalog.opponents.length;
    const kb = site.catalog.opponents.reduce((s, e) => s + e.bytes, 0) / 1024;
    $("data-note").textContent = `${n} opponents, ${kb.toFixed(0)} kB of data, each loaded when chosen.`;

    for (const r of document.querySelectorAll('input[name="mode"]')) {
      r.addEventListener("change", () => {
        fillOpponents(null);
        newGame();
      });
    }
    $("opponent").addEventListener("change", newGame);
    $("first").addEventListener("change", newGame);
    $("new-game").addEventListener("click", newGame);
    $("new-seed").addEventListener("click", () => {
      $("seed").value = randomSeed();
      newGame();
    });
    $("seed").addEventListener("change", newGame);
    $("roll").addEventListener("click", () => act("roll"));
    $("hold").addEventListener("click", () => act("hold"));
    document.addEventListener("keydown", (ev) => {
      if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const key = ev.key.toLowerCase();
      if (key === "r") act("roll");
      else if (key === "h") act("hold");
      else if (key === "n") newGame();
    });
    newGame();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
