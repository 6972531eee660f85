// The dashboard's live parts: a server-sent-events stream per page, and the buttons.
"use strict";

const nardy = (() => {
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;

  async function post(url, body) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(body),
    });
    let data = {};
    try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
    return { ok: res.ok, status: res.status, data };
  }

  function text(el, value) { el.textContent = value == null ? "" : String(value); }

  function renderTable(root, v) {
    document.getElementById("board").innerHTML = v.svg || "";
    text(document.getElementById("waiting"), v.waiting_for ? "waiting for: " + v.waiting_for : "");
    const p = v.players || {};
    const pips = v.pips || {};
    text(document.getElementById("players"),
      `${p.light || "light"} (light, ${pips.light ?? "?"} pips) – ${p.dark || "dark"} (dark, ${pips.dark ?? "?"} pips)` +
      (v.on_roll ? ` · ${v.on_roll} to play` : ""));
    let score = "";
    if (v.score) score = `match to ${v.score.match_to}: light ${v.score.light} – dark ${v.score.dark}` + (v.score.crawford ? " · Crawford game" : "");
    else if (v.ledger) score = `money, ${v.ledger.stake} ${v.ledger.currency} a point: light ${v.ledger.light}, dark ${v.ledger.dark}`;
    text(document.getElementById("score"), score);

    const flag = document.getElementById("flag");
    flag.hidden = !v.flag;
    if (v.flag) {
      text(flag.querySelector(".reason"), "⚑ " + v.flag.reason);
      text(flag.querySelector(".nearest"), (v.flag.nearest || []).length ? "Legal plays nearest to it: " + v.flag.nearest.join(", ") : "");
      if (v.flag.answer_by) document.getElementById("as").value = v.flag.answer_by;
    }
    const q = document.getElementById("question");
    q.hidden = !v.question;
    if (v.question) {
      text(q.querySelector(".text"), v.question.text);
      const box = q.querySelector(".choices");
      box.innerHTML = "";
      for (const play of v.question.choices || []) {
        const b = document.createElement("button");
        b.dataset.action = "choose";
        b.dataset.play = play;
        text(b, play || "(no move)");
        box.appendChild(b);
      }
    }
    document.getElementById("enter").hidden = v.move_source !== "entered";
    const editor = document.getElementById("editor");
    if (!editor.open && v.position) {  // keep what a person is typing
      for (const input of editor.querySelectorAll("[data-point]")) input.value = v.position.points[input.dataset.point - 1];
      for (const input of editor.querySelectorAll("[data-bar]")) input.value = v.position.bar[input.dataset.bar];
      for (const input of editor.querySelectorAll("[data-off]")) input.value = v.position.off[input.dataset.off];
    }
    const moves = document.getElementById("moves");
    moves.innerHTML = "";
    for (const t of v.turns || []) {
      const li = document.createElement("li");
      li.className = (t.flags || []).length ? "flagged" : "";
      text(li, `${t.side} ${t.dice ? t.dice.join("-") : ""}: ${t.play || "(no move)"}` + ((t.flags || []).length ? "  ⚑ " + t.flags.join("; ") : ""));
      moves.appendChild(li);
    }
    root.dataset.version = v.version;
  }

  function editedPosition() {
    const editor = document.getElementById("editor");
    const value = (input) => Number(input.value || 0);
    const points = new Array(24).fill(0);
    for (const input of editor.querySelectorAll("[data-point]")) points[input.dataset.point - 1] = value(input);
    const bar = [0, 0], off = [0, 0];
    for (const input of editor.querySelectorAll("[data-bar]")) bar[input.dataset.bar] = value(input);
    for (const input of editor.querySelectorAll("[data-off]")) off[input.dataset.off] = value(input);
    return { points, bar, off };
  }

  function watchTable(tableId, first) {
    const root = document.querySelector(".table");
    renderTable(root, first);
    const base = `/table/${encodeURIComponent(tableId)}`;
    const source = new EventSource(base + "/events");
    source.addEventListener("state", (e) => renderTable(root, JSON.parse(e.data)));

    document.getElementById("unlock").addEventListener("submit", async (e) => {
      e.preventDefault();
      const msg = e.target.querySelector(".msg");
      const r = await post(base + "/unlock", { pin: e.target.pin.value });
      text(msg, r.ok ? "unlocked" : r.data.error);
      if (r.ok) root.dataset.unlocked = "yes";
    });
    document.getElementById("enter").addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = { kind: "enter_turn", by: document.getElementById("as").value, play: e.target.play.value };
      const r = await post(base + "/action", body);
      if (r.ok) e.target.play.value = ""; else alert(r.data.error || "refused");
    });
    root.addEventListener("click", async (e) => {
      const b = e.target.closest("button[data-action]");
      if (!b) return;
      const body = { kind: b.dataset.action, by: document.getElementById("as").value };
      if (b.dataset.play !== undefined) body.play = b.dataset.play;
      if (b.dataset.editor) body.position = editedPosition();
      const r = await post(base + "/action", body);
      if (!r.ok) alert(r.data.error || "refused");
    });
  }

  function clubCard(t) {
    const a = document.createElement("a");
    const lost = t.devices && (t.devices.cup === "lost" || t.devices.camera === "lost");
    a.className = "club-table" + (t.flag || lost ? " alert" : "");
    a.href = `/table/${encodeURIComponent(t.table_id)}`;
    a.dataset.table = t.table_id;
    const mini = document.createElement("div");
    mini.className = "mini";
    mini.innerHTML = t.svg || "";  // drawn by the server from numbers only
    a.appendChild(mini);
    const p = t.players || {};
    let score = "";
    if (t.score) score = `${t.score.light}–${t.score.dark} of ${t.score.match_to}` + (t.score.crawford ? " · Crawford" : "");
    else if (t.ledger) score = `${t.ledger.light} ${t.ledger.currency}`;
    const status = t.flag ? "⚑ " + t.flag.reason : (lost ? "device lost" : (t.waiting_for || ""));
    for (const [cls, value] of [["who", `${p.light || ""} – ${p.dark || ""}`], ["score", score], ["status", status]]) {
      const d = document.createElement("div");
      d.className = cls;
      text(d, value);
      a.appendChild(d);
    }
    return a;
  }

  function watchClub() {
    const club = document.getElementById("club");
    const source = new EventSource("/club/events");
    source.addEventListener("state", (e) => {
      club.replaceChildren(...JSON.parse(e.data).map(clubCard));
    });
  }

  return { watchTable, watchClub, post };
})();
