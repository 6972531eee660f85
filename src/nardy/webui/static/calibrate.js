// The calibration wizard: clicks on the frame become corners in the frame's own pixels.
"use strict";

(() => {
  const root = document.querySelector(".wizard");
  const table = root.dataset.table;
  const base = `/calibrate/${encodeURIComponent(table)}`;
  const names = ["top-left", "top-right", "bottom-right", "bottom-left"];
  const img = document.getElementById("frame");
  const marks = document.getElementById("marks");
  const step = document.getElementById("step");
  const message = document.getElementById("message");
  let corners = [];

  function draw() {
    const ns = "http://www.w3.org/2000/svg";
    marks.replaceChildren();
    if (corners.length > 1) {
      const poly = document.createElementNS(ns, "polygon");
      poly.setAttribute("points", corners.map((c) => c.join(",")).join(" "));
      poly.setAttribute("class", "quad");
      marks.appendChild(poly);
    }
    corners.forEach(([x, y], i) => {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", 9);
      c.setAttribute("class", "corner");
      marks.appendChild(c);
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", x + 12); t.setAttribute("y", y - 12);
      t.textContent = String(i + 1);
      marks.appendChild(t);
    });
    step.textContent = corners.length < 4
      ? `Click the ${names[corners.length]} corner of the board's frame (${corners.length}/4).`
      : "Four corners set: preview the board, then save the profile.";
    document.getElementById("preview").disabled = corners.length !== 4;
    document.getElementById("save").disabled = corners.length !== 4;
  }

  marks.addEventListener("click", (e) => {
    if (corners.length >= 4) return;
    const box = marks.getBoundingClientRect();
    const x = (e.clientX - box.left) * (Number(root.dataset.width) / box.width);
    const y = (e.clientY - box.top) * (Number(root.dataset.height) / box.height);
    corners.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    draw();
  });

  function markerLayout() {
    const layout = {};
    document.querySelectorAll("#marker-layout input").forEach((i) => { layout[i.name] = i.value; });
    return layout;
  }

  async function find(method) {
    const body = method === "markers" ? { method, layout: markerLayout() } : { method };
    const r = await nardy.post(base + "/find", body);
    message.textContent = r.ok ? "" : r.data.error;
    if (r.ok) { corners = r.data.corners; draw(); }
  }
  document.getElementById("find-markers").addEventListener("click", () => find("markers"));
  document.getElementById("find-auto").addEventListener("click", () => find("auto"));
  document.getElementById("clear").addEventListener("click", () => { corners = []; draw(); });

  document.getElementById("preview").addEventListener("click", async () => {
    const r = await nardy.post(base + "/preview", { corners });
    if (!r.ok) { message.textContent = r.data.error; return; }
    message.textContent = "";
    document.getElementById("result").hidden = false;
    document.getElementById("rectified").src = r.data.rectified;
    const rd = r.data.reading;
    document.getElementById("reading").textContent = rd.usable
      ? `points ${JSON.stringify(rd.points)}\nbar ${JSON.stringify(rd.bar)}  off ${JSON.stringify(rd.off)}`
      : `not usable: ${rd.why}`;
  });
  document.getElementById("save").addEventListener("click", async () => {
    const r = await nardy.post(base + "/save", { corners });
    message.textContent = r.ok ? `profile saved: ${r.data.saved}` : r.data.error;
    message.classList.toggle("ok", r.ok);
  });
  document.getElementById("unlock").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await nardy.post(`/table/${encodeURIComponent(table)}/unlock`, { pin: e.target.pin.value });
    e.target.querySelector(".msg").textContent = r.ok ? "unlocked" : r.data.error;
  });
  draw();
})();
