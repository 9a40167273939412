// Live updates and charts for the campaign page (no build step: plain script, htmx and Chart.js vendored).
function listen(campaignId, after) {
  const state = document.getElementById("live-state");
  const source = new EventSource(`/api/campaigns/${campaignId}/events?after=${after}`);
  source.onopen = () => { state.textContent = "live"; state.className = "ok"; };
  source.onerror = () => { state.textContent = "reconnecting…"; state.className = "dim"; };
  source.addEventListener("appended", (e) => {
    document.body.dispatchEvent(new CustomEvent("appended", {detail: e.data}));
  });
}

const charts = {};
function line(id, title, series) {
  const canvas = document.getElementById(id);
  if (!canvas || typeof Chart === "undefined") return;
  if (charts[id]) charts[id].destroy();
  if (!series.lines.length) {
    canvas.parentElement.dataset.empty = `${title}: nothing to draw yet`;
    return;
  }
  charts[id] = new Chart(canvas, {
    type: "line",
    data: {labels: series.labels, datasets: series.lines.map((l) => ({label: l.label, data: l.values, spanGaps: true}))},
    options: {animation: false, maintainAspectRatio: false, plugins: {title: {display: true, text: title}}, scales: {x: {title: {display: true, text: "seq"}}}},
  });
}

function drawCharts() {
  const node = document.getElementById("chart-data");
  if (!node) return;
  const data = JSON.parse(node.textContent);
  line("chart-strength", "Units' strength", data.strength);
  line("chart-treasury", "Treasury", data.treasury);
  line("chart-glory", "Officers' Glory", data.glory);
}

// The campaign page names its campaign and head on #live-state (no inline script: the CSP allows none).
document.addEventListener("DOMContentLoaded", () => {
  const state = document.getElementById("live-state");
  if (state && state.dataset.campaign) listen(state.dataset.campaign, Number(state.dataset.after));
});

// Drawn when the page loads and again each time a live update replaces the roster, log and charts.
document.addEventListener("DOMContentLoaded", drawCharts);
document.addEventListener("htmx:afterSettle", drawCharts);
