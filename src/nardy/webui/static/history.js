// History: step through a recorded game without reloading (buttons, the move list, arrow keys).
"use strict";

(() => {
  const root = document.getElementById("stepper");
  if (!root) return;
  const frames = JSON.parse(document.getElementById("frames").textContent);
  const last = frames.length - 1;
  const $ = (id) => document.getElementById(id);
  let current = Number(root.dataset.current) || 0;

  function show(i) {
    current = Math.max(0, Math.min(last, i));
    const f = frames[current];
    $("board").innerHTML = f.svg;
    $("now").textContent = f.text;
    $("result").textContent = f.result || "";
    $("where").textContent = `${current} / ${last}`;
    const flags = $("now-flags");
    flags.innerHTML = "";
    for (const [cls, text] of [...f.flags.map((t) => ["", "⚑ " + t]), ...f.voids.map((t) => ["void", t])]) {
      const li = document.createElement("li");
      li.className = cls;
      li.textContent = text;
      flags.appendChild(li);
    }
    $("prev").href = `?turn=${Math.max(current - 1, 0)}`;
    $("next").href = `?turn=${Math.min(current + 1, last)}`;
    $("prev").classList.toggle("disabled", current === 0);
    $("next").classList.toggle("disabled", current === last);
    for (const li of document.querySelectorAll("#moves li")) {
      li.classList.toggle("current", Number(li.dataset.turn) === current);
    }
    const item = document.querySelector(`#moves li[data-turn="${current}"]`);
    if (item) item.scrollIntoView({ block: "nearest" });
    root.dataset.current = current;
    history.replaceState(null, "", `?turn=${current}`);
  }

  $("prev").addEventListener("click", (e) => { e.preventDefault(); show(current - 1); });
  $("next").addEventListener("click", (e) => { e.preventDefault(); show(current + 1); });
  $("moves").addEventListener("click", (e) => {
    const li = e.target.closest("li[data-turn]");
    if (!li) return;
    e.preventDefault();
    show(Number(li.dataset.turn));
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  show(current);
})();
