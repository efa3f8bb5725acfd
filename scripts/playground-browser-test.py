#!/usr/bin/env python3
"""Drives the marble playground in headless Chromium over the DevTools protocol.

Usage: playground-browser-test.py ADDRESS RXMARBLES OUTPUT_DIR

ADDRESS is where `rxmarbles serve` listens; RXMARBLES is the built tool, whose
`--events` output is what the page must show for the same inputs. Chromium is
spoken to through --remote-debugging-pipe (file descriptors 3 and 4), so nothing
but the standard library is needed. Prints one line per check and a closing
'N passed, N failed' line; exits 1 when a check fails.
"""

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ADDRESS, RXMARBLES, OUTPUT = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
os.makedirs(OUTPUT, exist_ok=True)
results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        results["passed"] += 1
        print(f"ok   {name}")
    else:
        results["failed"] += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""))


class Browser:
    """Chromium with a command pipe (its fd 3) and an answer pipe (its fd 4)."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="rxmarbles-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def wire():
            # Copies above every open descriptor first, so that moving them to 3 and 4
            # overwrites nothing still needed; dup2 leaves them open across exec.
            command, answer = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(command, 3)
            os.dup2(answer, 4)

        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--remote-debugging-pipe", "--window-size=1200,1000", "--hide-scrollbars",
             f"--user-data-dir={self.profile}", "--no-first-run", "about:blank"],
            preexec_fn=wire, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
        raise RuntimeError(f"{method}: no answer within {timeout} s")

    def open_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": 1000, "deviceScaleFactor": 1, "mobile": False})

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.evaluate(expression):
                return True
            time.sleep(0.1)
        return False

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def tool_events(operator, inputs):
    """What `rxmarbles OPERATOR --input ... --events` lists: the page must show the same."""
    arguments = [RXMARBLES, operator, "--events", "--color", "never"]
    for text in inputs:
        # Joined to the option, so that text starting with dashes stays a value.
        arguments.append("--input=" + text)
    output = subprocess.run(arguments, capture_output=True, text=True, check=True, timeout=60).stdout
    return [line.strip() for line in output.splitlines() if line.startswith("  ") and ": [" in line]


def page_events(browser):
    return browser.evaluate("document.getElementById('events').textContent").split("\n")


def output_labels(browser):
    return browser.evaluate(
        "Array.from(document.querySelectorAll('#diagram g.stream.output g.marble text')).map(t => t.textContent)")


def events_of(lines, stream):
    return next((line for line in lines if line.startswith(stream + ": [")), None)


def labels_in(events_line):
    """The element labels of an RxTest listing line: `.next(2, "1a")` gives 1a."""
    labels = []
    for part in events_line.split(".next(")[1:]:
        value = part.split(", ", 1)[1].split(")", 1)[0]
        labels.append(value.strip('"'))
    return labels


def type_into(browser, index, text):
    browser.evaluate(f"(() => {{ const f = document.getElementById('input-{index}'); f.focus(); f.select(); }})()")
    browser.send("Input.insertText", {"text": text})


def settle(browser, expected_state="ready"):
    # The page debounces typing, then marks its state; wait for the answer.
    time.sleep(0.3)
    return browser.wait_for(f"document.body.dataset.state === '{expected_state}'")


browser = Browser()
try:
    browser.open_page()

    # 1. The example as the gallery has it.
    browser.send("Page.navigate", {"url": ADDRESS + "/?op=combineLatest"})
    check("the page loads and draws combineLatest", settle(browser))
    defaults = [browser.evaluate(f"document.getElementById('input-{i}').value") for i in range(2)]
    draggable = browser.evaluate("document.querySelectorAll('#diagram g.stream.input g.marble.draggable').length")
    drawn = browser.evaluate("document.querySelectorAll('#diagram g.stream.input g.marble').length")
    check("every marble of the example's inputs can be dragged", draggable == drawn and drawn > 0, f"{draggable} of {drawn}")
    check("the inputs hold the example's marbles", page_events(browser) == tool_events("combineLatest", defaults),
          f"{page_events(browser)} vs {tool_events('combineLatest', defaults)}")

    # 2. Typing into an input: the output follows, as the tool computes it.
    changed = "-1---2-3|"
    type_into(browser, 0, changed)
    check("typing a new input gets a new diagram", settle(browser))
    expected = tool_events("combineLatest", [changed, defaults[1]])
    shown = page_events(browser)
    check("the events shown are the operator's on the typed input", shown == expected, f"{shown} vs {expected}")
    output_line = events_of(expected, "output")
    check("the output diagram draws those elements", output_labels(browser) == labels_in(output_line),
          f"{output_labels(browser)} vs {labels_in(output_line)}")
    check("the address holds the operator and the inputs",
          "op=combineLatest" in browser.evaluate("location.search") and "input=" in browser.evaluate("location.search"))

    # 3. Dragging the first marble of input a two frames to the right.
    marble = browser.evaluate("""(() => {
        const m = document.querySelector('#diagram g.stream.input g.marble.draggable');
        const box = m.getBoundingClientRect();
        return {x: box.x + box.width / 2, y: box.y + box.height / 2, position: Number(m.dataset.position)};
    })()""")
    # Two frames of the picture: read the frame spacing from the server's layout.
    step = browser.evaluate("""(async () => {
        const r = await fetch('/api/diagram' + location.search);
        const d = await r.json();
        const svg = document.querySelector('#diagram svg');
        const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('width'));
        return (d.frameX[2] - d.frameX[1]) * scale;
    })()""")
    x, y = marble["x"], marble["y"]
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    browser.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
    for fraction in (0.5, 1.0, 1.5, 2.0):
        browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + step * fraction, "y": y, "button": "left", "buttons": 1})
    browser.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x + 2 * step, "y": y, "button": "left", "clickCount": 1})
    check("dragging a marble gets a new diagram", settle(browser))
    check("the drag changed the input", browser.wait_for("document.getElementById('input-0').value !== " + json.dumps(changed)))
    dragged = browser.evaluate("document.getElementById('input-0').value")
    moved = list(changed)
    key, at = moved[marble["position"]], marble["position"]
    moved[at], moved[at + 2] = "-", key
    check("the drag moved the marble two frames in the text", dragged == "".join(moved), f"{dragged!r} vs {''.join(moved)!r}")
    expected = tool_events("combineLatest", [dragged, defaults[1]])
    shown = page_events(browser)
    check("after the drag the events are the operator's", shown == expected, f"{shown} vs {expected}")
    check("after the drag the output diagram draws them",
          output_labels(browser) == labels_in(events_of(expected, "output")))
    shot = browser.send("Page.captureScreenshot", {"format": "png"})
    with open(os.path.join(OUTPUT, "playground.png"), "wb") as png:
        png.write(base64.b64decode(shot["data"]))
    check("a screenshot was written", os.path.getsize(os.path.join(OUTPUT, "playground.png")) > 10000)

    # 4. The shared address shows the same diagram in a fresh page.
    shared = browser.evaluate("document.getElementById('share').href")
    browser.send("Page.navigate", {"url": shared})
    check("the shared address loads", settle(browser))
    check("the shared address restores the inputs",
          browser.evaluate("document.getElementById('input-0').value") == dragged)
    check("the shared address shows the same events", page_events(browser) == expected)

    # 5. Malformed marbles: the parser's message, at the character it names.
    type_into(browser, 0, "-1-(2|")
    check("malformed marbles are reported", settle(browser, "problem"))
    mark = browser.evaluate("(document.querySelector('#mirror-0 mark') || {}).textContent")
    message = browser.evaluate("document.getElementById('input-problem-0').textContent")
    check("the character at fault is marked", mark == "(", repr(mark))
    check("the message names it and its position", "'(' at position 3" in message, message)
    shot = browser.send("Page.captureScreenshot", {"format": "png"})
    with open(os.path.join(OUTPUT, "playground-problem.png"), "wb") as png:
        png.write(base64.b64decode(shot["data"]))
    check("the server still answers afterwards",
          browser.evaluate("fetch('/api/diagram?op=map').then(r => r.status)") == 200)
finally:
    browser.close()

print(f"browser: {results['passed']} passed, {results['failed']} failed")
sys.exit(1 if results["failed"] else 0)
