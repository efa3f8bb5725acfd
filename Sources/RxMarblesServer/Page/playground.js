// The playground page. It keeps the operator and the inputs' marble text, asks the
// server for the diagram each time they change, and shows what comes back: the
// picture, the events, or the problem at the character it names. No operator runs here.
"use strict";

const state = {
  operators: [],
  limits: null,     // what the server accepts: inputs, their length, the frame width
  operator: null,   // one entry of state.operators
  inputs: [],       // marble text, one per input
  custom: false,    // whether the inputs differ from the example's
  request: 0,       // the number of the latest request; older answers are dropped
  timer: null,
  tests: null,      // the diagram on screen written as a test, by kind
  mode: "",         // "", "chain" or "compare"
  others: "",       // the operators chained to or compared with the first, comma-separated
};

const $ = (id) => document.getElementById(id);

function setStatus(status) {
  document.body.dataset.state = status;
}

async function start() {
  setStatus("loading");
  const [operators, limits] = await Promise.all([fetch("/api/operators"), fetch("/api/limits")]);
  state.operators = await operators.json();
  state.limits = await limits.json();
  fillOperatorMenu();

  const query = new URLSearchParams(location.search);
  const wanted = query.get("op");
  const found = wanted === null ? undefined : state.operators.find((op) => op.name.toLowerCase() === wanted.toLowerCase());
  const chosen = found || state.operators.find((op) => op.name === "map") || state.operators[0];
  const given = query.getAll("input");
  for (const mode of ["chain", "compare"]) {
    if (query.get(mode)) {
      state.mode = mode;
      state.others = query.get(mode);
    }
  }
  showCombination();
  choose(chosen, found && given.length > 0 ? given : null);
  if (wanted !== null && !found) showNotice(unknownOperatorNotice(wanted, chosen.name));

  $("operator").addEventListener("change", (event) => {
    clearNotice();
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
  $("copy-test").addEventListener("click", copyTest);
  $("combine-mode").addEventListener("change", (event) => {
    state.mode = event.target.value;
    showCombination();
    update(0);
  });
  $("combine-with").addEventListener("input", (event) => {
    state.others = event.target.value;
    update(300);
  });
  $("test-style").addEventListener("change", () => {
    if (!$("test-code").hidden) showTest();
  });
}

// What the page says for an operator the gallery does not have.
function unknownOperatorNotice(name, shown) {
  const names = state.operators.map((op) => op.name);
  const close = names
    .map((candidate) => ({ candidate, distance: editDistance(name.toLowerCase(), candidate.toLowerCase()) }))
    .filter((item) => item.distance <= Math.max(1, Math.floor(item.candidate.length / 3)))
    .sort((a, b) => a.distance - b.distance);
  const quoted = name === "" ? "an empty name" : "'" + name + "'";
  let text = "The gallery has no operator called " + quoted + ", so this shows " + shown + " instead.";
  if (close.length > 0) text += " Did you mean " + close[0].candidate + "?";
  return text + " Pick one from the menu.";
}

// Insertions, deletions and substitutions, each costing 1.
function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

// A note above the diagram that stays until the next change (an unknown operator, a
// drop that could not be made).
function showNotice(text) {
  const notice = $("notice");
  notice.textContent = text;
  notice.hidden = false;
}

function clearNotice() {
  $("notice").hidden = true;
}

// The chain or comparison controls, as the state says.
function showCombination() {
  $("combine-mode").value = state.mode;
  $("combine-with").value = state.others;
  $("combine-with").hidden = state.mode === "";
  const hint = $("combine-hint");
  hint.hidden = state.mode === "";
  hint.textContent = state.mode === "chain"
    ? "each operator runs on the output of the one before, as it happened; each must take one input"
    : "each operator runs on the inputs above; where an output differs from the first is marked";
}

// The query that adds the chain or the comparison, if one is asked for.
function addCombination(query) {
  const others = state.others.split(",").map((name) => name.trim()).filter((name) => name !== "");
  if (state.mode !== "" && others.length > 0) query.set(state.mode, others.join(","));
}

function fillOperatorMenu() {
  const names = $("operator-names");
  for (const op of state.operators) {
    const option = document.createElement("option");
    option.value = op.name;
    names.appendChild(option);
  }
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

// What input `index` takes as an element, as the server says.
function inputAccepts(index) {
  const defaults = state.operator.inputs;
  if (defaults.length === 0) return "";
  return defaults[Math.min(index, defaults.length - 1)].accepts;
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
    field.maxLength = state.limits.maximumInputLength;
    field.addEventListener("input", () => {
      state.inputs[index] = field.value;
      state.custom = true;
      clearNotice();
      update(80);
    });
    const hint = document.createElement("div");
    hint.className = "input-hint";
    hint.id = "input-hint-" + index;
    hint.textContent = "An element is " + inputAccepts(index) + ".";
    const mirror = document.createElement("pre");
    mirror.className = "mirror";
    mirror.id = "mirror-" + index;
    mirror.hidden = true;
    const problem = document.createElement("div");
    problem.className = "input-problem";
    problem.id = "input-problem-" + index;
    problem.hidden = true;
    row.append(label, field, hint, mirror, problem);
    box.appendChild(row);
  });
  const op = state.operator;
  const max = Math.min(state.limits.maximumInputCount, op.maximumInputs === null || op.maximumInputs === undefined ? Infinity : op.maximumInputs);
  $("add-input").hidden = state.inputs.length >= max;
  $("remove-input").hidden = state.inputs.length <= op.minimumInputs;
}

// The address that shows what is on screen now.
function pageAddress() {
  const query = new URLSearchParams();
  query.set("op", state.operator.name);
  addCombination(query);
  if (state.custom) for (const text of state.inputs) query.append("input", text);
  return "/?" + query.toString();
}

// The example's own inputs are sent too, so that the answer says where their marbles
// stand and they can be dragged at once.
function diagramAddress() {
  const query = new URLSearchParams();
  query.set("op", state.operator.name);
  addCombination(query);
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
  fitToWindow(diagram.querySelector("svg"));
  $("call").textContent = result.operator === state.operator.name ? result.call : result.operator;
  $("events").textContent = result.events.join("\n");
  state.tests = result.tests;
  if (!$("test-code").hidden) showTest();
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

// Shows the diagram on screen as a test of the kind chosen; true when there is one.
function showTest() {
  const code = state.tests && state.tests[$("test-style").value];
  $("test-code").textContent = code || "This diagram cannot be written as a test.";
  $("test-code").hidden = false;
  return Boolean(code);
}

// Shows the test and puts it on the clipboard, saying whether that worked.
async function copyTest() {
  if (!showTest()) return;
  try {
    await navigator.clipboard.writeText($("test-code").textContent);
    $("copied").textContent = "Copied: paste it into a test target that depends on RxSwift and RxTest.";
  } catch (error) {
    $("copied").textContent = "The browser did not allow copying; select the code below instead.";
  }
}

// The picture takes the width of its box, and never more than one and a half times its
// own size, so that long inputs fit without scrolling and short ones do not balloon.
function fitToWindow(svg) {
  if (!svg) return;
  const natural = Number(svg.getAttribute("width"));
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.style.width = "100%";
  svg.style.height = "auto";
  svg.style.maxWidth = 1.5 * natural + "px";
}

// The text as frames, each the list of its characters ('-' is an empty frame, a group
// one frame, '^' a frame of its own), with the frame and place of every character that
// stands for an event; null for text with spaces or time progressions.
function framesOf(text) {
  const chars = Array.from(text);
  if (chars.some((c) => /\s/.test(c))) return null;
  const frames = [];
  const owner = new Map();
  let i = 0;
  while (i < chars.length) {
    if (chars[i] === "(") {
      const end = chars.indexOf(")", i);
      if (end < 0) return null;
      const frame = [];
      for (let j = i + 1; j < end; j++) {
        owner.set(j, [frames.length, frame.length]);
        frame.push(chars[j]);
      }
      frames.push(frame);
      i = end + 1;
    } else if (chars[i] === "-") {
      frames.push([]);
      i += 1;
    } else {
      owner.set(i, [frames.length, 0]);
      frames.push([chars[i]]);
      i += 1;
    }
  }
  return { frames, owner };
}

function textOf(frames) {
  return frames.map((frame) => (frame.length === 0 ? "-" : frame.length === 1 ? frame[0] : "(" + frame.join("") + ")")).join("");
}

// Moves the event written at `position` by `delta` frames, out of its group if it is in
// one: { text } with the new text, or { reason } when it cannot be dropped there.
function moveInText(text, position, delta) {
  const model = framesOf(text);
  if (model === null || !model.owner.has(position)) {
    return { reason: "Only marbles of text without spaces or time progressions can be dragged; edit the text instead." };
  }
  const [from, place] = model.owner.get(position);
  const target = from + delta;
  if (target < 0) return { reason: "That is before the first frame of the input." };
  const frames = model.frames;
  while (frames.length <= target) frames.push([]);
  if (frames[target].length > 0) {
    const there = frames[target].map((c) => "'" + c + "'").join(" and ");
    const moved = frames[from][place];
    return {
      reason: "That frame already has " + there + ". Drop onto a frame with nothing in it (-), " +
        "or type a group such as (" + frames[target].join("") + moved + ") to have events at one frame.",
    };
  }
  frames[target] = frames[from].splice(place, 1);
  return { text: textOf(frames) };
}

// Every event of the inputs can be dragged: marbles, completions and errors. A
// completion's bar gets a wider invisible handle so that it can be grabbed.
function enableDragging(result) {
  const svg = $("diagram").querySelector("svg");
  if (!svg) return;
  const streams = svg.querySelectorAll("g.stream.input");
  streams.forEach((stream, inputIndex) => {
    const places = result.inputMarbles[inputIndex] || [];
    const drawn = stream.querySelectorAll(":scope > g.marble, :scope > line.complete, :scope > g.error");
    drawn.forEach((element, eventIndex) => {
      const place = places[eventIndex];
      if (!place) return;
      const handle = element.tagName.toLowerCase() === "line" ? wrapWithHandle(element) : element;
      handle.classList.add("draggable");
      handle.dataset.input = String(inputIndex);
      handle.dataset.position = String(place.position);
      handle.dataset.kind = place.kind;
      handle.addEventListener("pointerdown", (event) => drag(event, svg, handle, inputIndex, place, result.frameX));
    });
  });
}

function wrapWithHandle(line) {
  const ns = "http://www.w3.org/2000/svg";
  const group = document.createElementNS(ns, "g");
  group.setAttribute("class", "terminal");
  const x = Number(line.getAttribute("x1"));
  const top = Math.min(Number(line.getAttribute("y1")), Number(line.getAttribute("y2")));
  const height = Math.abs(Number(line.getAttribute("y2")) - Number(line.getAttribute("y1")));
  const handle = document.createElementNS(ns, "rect");
  handle.setAttribute("x", String(x - 9));
  handle.setAttribute("y", String(top));
  handle.setAttribute("width", "18");
  handle.setAttribute("height", String(height));
  handle.setAttribute("fill", "transparent");
  line.replaceWith(group);
  group.append(handle, line);
  return group;
}

function svgX(svg, clientX) {
  const matrix = svg.getScreenCTM();
  return matrix ? (clientX - matrix.e) / matrix.a : clientX;
}

function drag(event, svg, element, inputIndex, place, frameX) {
  event.preventDefault();
  clearNotice();
  const startX = svgX(svg, event.clientX);
  const originX = frameX[place.frame];
  element.classList.add("dragging");
  element.setPointerCapture(event.pointerId);
  const move = (moveEvent) => {
    element.setAttribute("transform", "translate(" + (svgX(svg, moveEvent.clientX) - startX) + " 0)");
  };
  const drop = (upEvent) => {
    element.removeEventListener("pointermove", move);
    element.removeEventListener("pointerup", drop);
    element.classList.remove("dragging");
    element.removeAttribute("transform");
    const x = originX + svgX(svg, upEvent.clientX) - startX;
    let nearest = 0;
    frameX.forEach((candidate, frame) => {
      if (Math.abs(candidate - x) < Math.abs(frameX[nearest] - x)) nearest = frame;
    });
    // Past the last frame drawn, keep counting in frames of the last width.
    const step = frameX.length > 1 ? frameX[frameX.length - 1] - frameX[frameX.length - 2] : state.limits.frameWidth;
    if (x > frameX[frameX.length - 1] + step / 2) nearest = frameX.length - 1 + Math.round((x - frameX[frameX.length - 1]) / step);
    if (nearest === place.frame) return;
    const moved = moveInText(state.inputs[inputIndex], place.position, nearest - place.frame);
    if (moved.reason) {
      showNotice(inputName(inputIndex) + ": " + moved.reason);
      return;
    }
    state.inputs[inputIndex] = moved.text;
    state.custom = true;
    $("input-" + inputIndex).value = moved.text;
    update(0);
  };
  element.addEventListener("pointermove", move);
  element.addEventListener("pointerup", drop);
}

start().catch((error) => {
  showProblem({ message: "The page could not start: " + error });
});
