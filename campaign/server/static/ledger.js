// Live updates and charts for the campaign page (no build step: plain script, htmx and Chart.js vendored).
// Each append brings the page's parts that changed, rendered once on the server for every open page: each
// replaces the element of its id. (A stream that reconnects is sent every part again.)
function listen(campaignId, after) {
  const state = document.getElementById("live-state");
  // the fragments in the page's own language (the API is otherwise language-neutral)
  const lang = document.documentElement.lang || "en";
  const source = new EventSource(`/api/campaigns/${campaignId}/events?after=${after}&fragments=true&lang=${lang}`);
  // its words in the page's language, given by the page (data-live, data-reconnecting)
  source.onopen = () => { state.textContent = state.dataset.live || "live"; state.className = "ok"; };
  source.onerror = () => { state.textContent = state.dataset.reconnecting || "reconnecting…"; state.className = "dim"; };
  source.addEventListener("fragments", (e) => {
    const update = JSON.parse(e.data);
    for (const [id, html] of Object.entries(update.parts)) {
      const node = document.getElementById(id);
      if (!node) continue;
      const chosen = keptChoices(node);
      node.outerHTML = html;
      restoreChoices(chosen);
    }
    // a list of rows (the log) comes as its new or changed rows and the keys' order; should a row the page was
    // to keep be missing, it asks for every part again
    for (const [id, changes] of Object.entries(update.rows || {})) {
      if (!placeRows(document.getElementById(id), changes)) {
        source.close();
        listen(campaignId, 0);
        return;
      }
    }
    drawCharts();
    staleCommands();
    // the head a GM's undo is sent with: the one the page now shows
    for (const input of document.querySelectorAll("input[data-live-head]")) input.value = String(update.head);
    document.body.dispatchEvent(new CustomEvent("appended", {detail: update.head}));
  });
}

// A picker drawn again (the GM's invitation link's "for", when a side is first known) keeps what the reader chose
// in it, while that choice is still offered; one left as it was drawn shows what the new drawing offers first.
document.addEventListener("change", (e) => {
  if (e.target instanceof HTMLSelectElement) e.target.dataset.chosen = "yes";
});

function keptChoices(node) {
  const selects = node.matches("select[id]") ? [node] : [...node.querySelectorAll("select[id]")];
  return selects.filter((s) => s.dataset.chosen).map((s) => [s.id, s.value]);
}

function restoreChoices(chosen) {
  for (const [id, value] of chosen) {
    const select = document.getElementById(id);
    if (select && [...select.options].some((o) => o.value === value)) {
      select.value = value;
      select.dataset.chosen = "yes";
    }
  }
}

function placeRows(node, changes) {
  const body = node && node.querySelector("[data-rows]");
  if (!body) return false;
  const shown = new Map([...body.children].map((row) => [row.dataset.key, row]));
  const parsed = document.createElement("tbody");
  const rows = [];
  for (const key of changes.order) {
    let row = shown.get(key);
    if (key in changes.rows) {
      parsed.innerHTML = changes.rows[key];
      row = parsed.firstElementChild;
    }
    if (!row) return false;
    rows.push(row);
  }
  body.replaceChildren(...rows);
  return true;
}

// The commands listed are those the battle's state allowed when the page was drawn (a shot only during a battle,
// a battle's start only between them), with pickers of the units there were then: once a battle begins or ends,
// or the roster's units change (a first muster: the battle's start then offers it), the page asks for its own
// list again (it is the reader's: role, sides, form token) and swaps it in, once for each change, not on every
// update. A drawer open in the old list stays as it is (what is typed in it, or the answer it shows); should the
// list not come after a battle's change, the note says to reload.
let fetchingCommands = false;
function staleCommands() {
  const commands = document.getElementById("commands");
  const battle = document.getElementById("battle");
  const roster = document.getElementById("roster");
  const note = document.getElementById("commands-stale");
  const sameBattle = commands && battle && commands.dataset.fought === battle.dataset.fought;
  const sameUnits = !commands || !roster || commands.dataset.units === roster.dataset.units;
  if (!commands || !battle || (sameBattle && sameUnits) || fetchingCommands) {
    if (note && commands && battle) note.hidden = sameBattle;
    return;
  }
  const campaignId = document.getElementById("live-state").dataset.campaign;
  fetchingCommands = true;
  fetch(`/c/${campaignId}/commands`, {headers: {"Accept": "text/html"}, credentials: "same-origin"})
    .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
    .then((html) => swapCommands(commands, html))
    .catch(() => { if (note && !sameBattle) note.hidden = false; })
    // not asked again until the next update: a list drawn at a newer head than the battle part waits for it
    .finally(() => { fetchingCommands = false; });
}

// A command's drawer the reader has typed in (or that shows an answer, or the dice it asks for) is theirs: a list
// drawn again keeps it as it is. One only opened is taken from the new list, open, so it offers what is there now
// (a battle's start opened just after a muster offers the new unit).
document.addEventListener("input", (e) => {
  const drawer = e.target instanceof Element ? e.target.closest("details.command") : null;
  if (drawer) drawer.dataset.touched = "yes";
});

function untouched(drawer) {
  return !drawer.dataset.touched && !drawer.querySelector(".command-result p, .dice");
}

function swapCommands(old, html) {
  const drawn = new DOMParser().parseFromString(html, "text/html").getElementById("commands");
  if (!drawn) return;
  const fresh = document.importNode(drawn, true);
  // the groups the reader opened or closed stay so (a group new to the list: as the server draws it)
  for (const group of fresh.querySelectorAll("details.command-group")) {
    const was = old.querySelector(`#${CSS.escape(group.id)}`);
    if (was) group.open = was.open;
  }
  for (const open of old.querySelectorAll("details.command[open]")) {
    const same = fresh.querySelector(`#${CSS.escape(open.id)}`);
    if (same && untouched(open)) {
      same.open = true;
      same.closest("details.command-group")?.setAttribute("open", "");
    } else if (same) same.replaceWith(open);
    else fresh.querySelector("details.command")?.before(open);
  }
  old.replaceWith(fresh);
  if (typeof htmx !== "undefined") htmx.process(fresh);
}

const charts = {};
// A chart's name is its figure's caption (the page's words, in the reader's language); its x axis is the
// campaign's calendar ("end of Ruins, day 3"), the labels the server gives; its table is under it.
function line(id, series) {
  const canvas = document.getElementById(id);
  if (!canvas || typeof Chart === "undefined") return;
  if (charts[id]) charts[id].destroy();
  if (!series.lines.length) {
    canvas.parentElement.dataset.empty = canvas.parentElement.dataset.emptySaid || "nothing to draw yet";
    return;
  }
  delete canvas.parentElement.dataset.empty;  // drawn again with something to draw: a chart's room again
  charts[id] = new Chart(canvas, {
    type: "line",
    data: {labels: series.labels, datasets: series.lines.map((l) => ({label: l.label, data: l.values, spanGaps: true}))},
    options: {animation: false, maintainAspectRatio: false, scales: {x: {ticks: {autoSkip: true, maxRotation: 60}}, y: {ticks: {precision: 0}}}},
  });
}

function drawCharts() {
  const node = document.getElementById("chart-data");
  if (!node) return;
  const data = JSON.parse(node.textContent);
  // the canvases take room only where a script draws them: without one, the tables are the charts
  const section = document.getElementById("charts");
  if (section && typeof Chart !== "undefined") section.classList.add("drawn");
  for (const [key, series] of Object.entries(data)) line(`chart-${key}`, series);
}

// The campaign page names its campaign and head on #live-state (no inline script: the CSP allows none).
document.addEventListener("DOMContentLoaded", () => {
  const state = document.getElementById("live-state");
  if (state && state.dataset.campaign) listen(state.dataset.campaign, Number(state.dataset.after));
});

// A command's answer (or the dice it asks for) is brought into view once it is in place: the form it replaces
// grows, and the browser's scroll anchoring then keeps what is below it still, which put the answer a screen
// above the person who tapped (tests/browser/test_page_on_a_phone.py checks it is in view).
document.addEventListener("htmx:afterSettle", (e) => {
  const swapped = e.detail && e.detail.elt;
  const body = swapped && swapped.closest ? swapped.closest(".command-body") : null;
  if (!body) return;
  const said = body.querySelector(".command-result .error, .command-result .ok") || body.querySelector(".dice");
  if (said) said.scrollIntoView({block: "nearest"});
});

// Drawn when the page loads and again each time a live update replaces the roster, log and charts.
document.addEventListener("DOMContentLoaded", drawCharts);
document.addEventListener("htmx:afterSettle", drawCharts);
