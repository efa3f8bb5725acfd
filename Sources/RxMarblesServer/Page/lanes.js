// The lanes page. It sends a recording's text to the server and shows what comes back:
// the picture and the text drawing, or the problem on the line it names. It opens the
// recording the server was started with (rxmarbles serve --lanes FILE), if any.
"use strict";

const $ = (id) => document.getElementById(id);

function setStatus(status) {
  document.body.dataset.state = status;
}

// The recording the server was started with; nothing to show without one.
async function loadServed() {
  setStatus("loading");
  const response = await fetch("/api/lanes");
  if (response.status === 404) {
    setStatus("empty");
    return;
  }
  const body = await response.json();
  if (response.ok) show(body, body.file);
  else showProblem(body);
}

// Draws `text` (a recording's contents), named `name` in the heading.
async function draw(text, name) {
  setStatus("loading");
  let response, body;
  try {
    response = await fetch("/api/lanes", {
      method: "POST",
      headers: { "Content-Type": "text/plain; charset=utf-8" },
      body: text,
    });
    body = await response.json();
  } catch (error) {
    showProblem({ message: "The server did not answer: " + error });
    return;
  }
  if (response.ok) show(body, name);
  else showProblem(body);
}

function clearProblem() {
  $("problem").hidden = true;
  $("problem-line").hidden = true;
}

function show(result, name) {
  clearProblem();
  const diagram = $("diagram");
  diagram.classList.remove("stale");
  diagram.innerHTML = result.svg.replace(/^<\?xml[^>]*>\s*/, "");
  $("lanes-name").textContent = name || "";
  $("lanes-heading").textContent = result.heading;
  $("lanes-drawing").textContent = result.text;
  setStatus("ready");
}

// The server's message; when it names a line, that line under it, the column marked.
function showProblem(problem) {
  $("diagram").classList.add("stale");
  const box = $("problem");
  box.textContent = problem.message;
  box.hidden = false;
  const mirror = $("problem-line");
  mirror.textContent = "";
  mirror.hidden = true;
  if (problem.line && typeof problem.lineText === "string") {
    const text = Array.from(problem.lineText);
    const label = "line " + problem.line + ": ";
    mirror.append(document.createTextNode(label));
    if (problem.column) {
      const at = Math.min(problem.column - 1, text.length);
      mirror.append(document.createTextNode(text.slice(0, at).join("")));
      const mark = document.createElement("mark");
      mark.textContent = at < text.length ? text[at] : " ";
      mirror.append(mark);
      mirror.append(document.createTextNode(text.slice(at + 1).join("")));
    } else {
      mirror.append(document.createTextNode(problem.lineText));
    }
    mirror.hidden = false;
  }
  setStatus("problem");
}

$("lanes-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) draw(await file.text(), file.name);
});
$("draw").addEventListener("click", () => draw($("lanes-text").value, "pasted text"));

loadServed().catch((error) => showProblem({ message: "The page could not start: " + error }));
