// The playground page. It keeps the operator and the inputs' marble text, asks the
// server for the diagram each time they change, and shows what comes back: the
// picture, the events, or the problem at the character it names. No operator runs here.
"use strict";

const state = {
  operators: [],
  operator: null,   // one entry of state.operators
  inputs: [],       // marble text, one per input
  custom: false,    // whether the inputs differ from the example's
  request: 0,       // the number of the latest request; older answers are dropped
  timer: null,
};

const $ = (id) => document.getElementById(id);

function setStatus(status) {
  document.body.dataset.state = status;
}

async function start() {
  setStatus("loading");
  const response = await fetch("/api/operators");
  state.operators = await response.json();
  fillOperatorMenu();

  const query = new URLSearchParams(location.search);
  const wanted = (query.get("op") || "map").toLowerCase();
  const chosen = state.operators.find((op) => op.name.toLowerCase() === wanted) || state.operators[0];
  const given = query.getAll("input");
  choose(chosen, given.length > 0 ? given : null);

  $("operator").addEventListener("change", (event) => {
    choose(state.operators.find((op) => op.name === event.target.value), null);
  });
  $("add-input").addEventListener("click", () => {
    state.inputs.push(state.inputs[state.inputs.length - 1] || "-1-|");
    state.custom = true;
    showInputs();
    update(0);
  });
  $("remove-input").addEventListener("click", () => {
    state.inputs.pop();
    state.custom = true;
    showInputs();
    update(0);
  });
  $("reset").addEventListener("click", () => choose(state.operator, null));
}

function fillOperatorMenu() {
  const menu = $("operator");
  const groups = new Map();
  for (const op of state.operators) {
    if (!groups.has(op.family)) {
      const group = document.createElement("optgroup");
      group.label = op.family;
      groups.set(op.family, group);
      menu.appendChild(group);
    }
    const option = document.createElement("option");
    option.value = op.name;
    option.textContent = op.name;
    groups.get(op.family).appendChild(option);
  }
}

function choose(op, inputs) {
  state.operator = op;
  state.custom = inputs !== null;
  state.inputs = inputs !== null ? inputs.slice() : op.inputs.map((input) => input.marbles);
  $("operator").value = op.name;
  $("summary").textContent = op.summary;
  showInputs();
  update(0);
}

function inputName(index) {
  const defaults = state.operator.inputs;
  if (index < defaults.length) return defaults[index].name + (defaults[index].cold ? " (cold)" : "");
  return "input " + (index + 1);
}

function showInputs() {
  const box = $("inputs");
  box.textContent = "";
  state.inputs.forEach((text, index) => {
    const row = document.createElement("div");
    row.className = "input-row";
    const label = document.createElement("label");
    label.textContent = inputName(index);
    label.htmlFor = "input-" + index;
    const field = document.createElement("input");
    field.type = "text";
    field.className = "marbles";
    field.id = "input-" + index;
    field.spellcheck = false;
    field.autocomplete = "off";
    field.value = text;
    field.addEventListener("input", () => {
      state.inputs[index] = field.value;
      state.custom = true;
      update(80);
    });
    const mirror = document.createElement("pre");
    mirror.className = "mirror";
    mirror.id = "mirror-" + index;
    mirror.hidden = true;
    const problem = document.createElement("div");
    problem.className = "input-problem";
    problem.id = "input-problem-" + index;
    problem.hidden = true;
    row.append(label, field, mirror, problem);
    box.appendChild(row);
  });
  const op = state.operator;
  const max = op.maximumInputs === null || op.maximumInputs === undefined ? 8 : op.maximumInputs;
  $("add-input").hidden = state.inputs.length >= max;
  $("remove-input").hidden = state.inputs.length <= op.minimumInputs;
}

// The address that shows what is on screen now.
function pageAddress() {
  const query = new URLSearchParams();
  query.set("op", state.operator.name);
  if (state.custom) for (const text of state.inputs) query.append("input", text);
  return "/?" + query.toString();
}

// The example's own inputs are sent too, so that the answer says where their marbles
// stand and they can be dragged at once.
function diagramAddress() {
  const query = new URLSearchParams();
  query.set("op", state.operator.name);
  for (const text of state.inputs) query.append("input", text);
  return "/api/diagram?" + query.toString();
}

function update(delay) {
  clearTimeout(state.timer);
  setStatus("loading");
  state.timer = setTimeout(fetchDiagram, delay);
}

async function fetchDiagram() {
  const number = ++state.request;
  const address = pageAddress();
  history.replaceState(null, "", address);
  const share = $("share");
  share.href = address;
  share.textContent = location.origin + address;
  let response, body;
  try {
    response = await fetch(diagramAddress());
    body = await response.json();
  } catch (error) {
    if (number === state.request) showProblem({ message: "The server did not answer: " + error });
    return;
  }
  if (number !== state.request) return;
  if (response.ok) showDiagram(body);
  else showProblem(body);
}

function clearProblems() {
  $("problem").hidden = true;
  state.inputs.forEach((_, index) => {
    $("input-" + index).classList.remove("invalid");
    $("mirror-" + index).hidden = true;
    $("input-problem-" + index).hidden = true;
  });
}

function showDiagram(result) {
  clearProblems();
  const diagram = $("diagram");
  diagram.classList.remove("stale");
  diagram.innerHTML = result.svg.replace(/^<\?xml[^>]*>\s*/, "");
  $("call").textContent = result.call;
  $("events").textContent = result.events.join("\n");
  enableDragging(result);
  setStatus("ready");
}

// Shows the server's message; when it names a character of an input, marks it there.
function showProblem(problem) {
  clearProblems();
  $("diagram").classList.add("stale");
  const index = problem.input ? problem.input - 1 : -1;
  if (index >= 0 && index < state.inputs.length) {
    $("input-" + index).classList.add("invalid");
    const text = Array.from(state.inputs[index]);
    const mirror = $("mirror-" + index);
    mirror.textContent = "";
    if (problem.position !== null && problem.position !== undefined) {
      const at = Math.min(problem.position, text.length);
      mirror.append(document.createTextNode(text.slice(0, at).join("")));
      const mark = document.createElement("mark");
      mark.textContent = at < text.length ? text[at] : " ";
      mirror.append(mark);
      mirror.append(document.createTextNode(text.slice(at + 1).join("")));
      mirror.hidden = false;
    }
    const line = $("input-problem-" + index);
    line.textContent = problem.message;
    line.hidden = false;
  } else {
    const box = $("problem");
    box.textContent = problem.message;
    box.hidden = false;
  }
  setStatus("problem");
}

// Moves the key at `position` by `delta` frames, in text where every character is one
// frame; null when the text has groups or other multi-character marks, or the place is
// taken.
function moveInText(text, position, delta) {
  if (!/^[-A-Za-z0-9|#]*$/.test(text)) return null;
  const chars = Array.from(text);
  const target = position + delta;
  if (target < 0) return null;
  while (chars.length <= target) chars.push("-");
  if (chars[target] !== "-") return null;
  chars[target] = chars[position];
  chars[position] = "-";
  return chars.join("");
}

function enableDragging(result) {
  const svg = $("diagram").querySelector("svg");
  if (!svg) return;
  const streams = svg.querySelectorAll("g.stream.input");
  streams.forEach((stream, inputIndex) => {
    const places = result.inputMarbles[inputIndex] || [];
    stream.querySelectorAll("g.marble").forEach((marble, marbleIndex) => {
      const place = places[marbleIndex];
      if (!place) return;
      marble.classList.add("draggable");
      marble.dataset.input = String(inputIndex);
      marble.dataset.position = String(place.position);
      marble.addEventListener("pointerdown", (event) => drag(event, svg, marble, inputIndex, place, result.frameX));
    });
  });
}

function svgX(svg, clientX) {
  const matrix = svg.getScreenCTM();
  return matrix ? (clientX - matrix.e) / matrix.a : clientX;
}

function drag(event, svg, marble, inputIndex, place, frameX) {
  event.preventDefault();
  const startX = svgX(svg, event.clientX);
  const originX = frameX[place.frame];
  marble.classList.add("dragging");
  marble.setPointerCapture(event.pointerId);
  const move = (moveEvent) => {
    marble.setAttribute("transform", "translate(" + (svgX(svg, moveEvent.clientX) - startX) + " 0)");
  };
  const drop = (upEvent) => {
    marble.removeEventListener("pointermove", move);
    marble.removeEventListener("pointerup", drop);
    marble.classList.remove("dragging");
    const x = originX + svgX(svg, upEvent.clientX) - startX;
    let nearest = 0;
    frameX.forEach((candidate, frame) => {
      if (Math.abs(candidate - x) < Math.abs(frameX[nearest] - x)) nearest = frame;
    });
    // Past the last frame drawn, keep counting in frames of the last width.
    const step = frameX.length > 1 ? frameX[frameX.length - 1] - frameX[frameX.length - 2] : 38;
    if (x > frameX[frameX.length - 1] + step / 2) nearest = frameX.length - 1 + Math.round((x - frameX[frameX.length - 1]) / step);
    const moved = moveInText(state.inputs[inputIndex], place.position, nearest - place.frame);
    marble.removeAttribute("transform");
    if (moved === null || nearest === place.frame) return;
    state.inputs[inputIndex] = moved;
    state.custom = true;
    $("input-" + inputIndex).value = moved;
    update(0);
  };
  marble.addEventListener("pointermove", move);
  marble.addEventListener("pointerup", drop);
}

start().catch((error) => {
  showProblem({ message: "The page could not start: " + error });
});
