#!/usr/bin/env python3
"""Drives the marble playground in headless Chromium over the DevTools protocol.

Usage: playground-browser-test.py ADDRESS RXMARBLES OUTPUT_DIR [LANES_FILE]

ADDRESS is where `rxmarbles serve` listens; RXMARBLES is the built tool, whose
`--events` output is what the page must show for the same inputs. LANES_FILE is the
recording the server was started with (`--lanes`): the lanes page must draw it as
`rxmarbles lanes` does. Chromium is
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
LANES = sys.argv[4] if len(sys.argv) > 4 else None
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

    def resize(self, width, height):
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def screenshot(self, name):
        shot = self.send("Page.captureScreenshot", {"format": "png"})
        path = os.path.join(OUTPUT, name)
        with open(path, "wb") as png:
            png.write(base64.b64decode(shot["data"]))
        return os.path.getsize(path)

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


def tool_events(operator, inputs, combination=()):
    """What `rxmarbles OPERATOR --input ... --events` lists: the page must show the same.
    `combination` is a --chain or --compare option with its list, instead of OPERATOR."""
    arguments = [RXMARBLES] + (list(combination) if combination else [operator]) + ["--events", "--color", "never"]
    for text in inputs:
        # Joined to the option, so that text starting with dashes stays a value.
        arguments.append("--input=" + text)
    output = subprocess.run(arguments, capture_output=True, text=True, check=True, timeout=60).stdout
    return [line.strip() for line in output.splitlines() if line.startswith("  ") and ": [" in line]


def tool_test(operator, inputs, style):
    """What `rxmarbles OPERATOR --input ... --test STYLE` writes: the page must offer the same."""
    arguments = [RXMARBLES, operator, "--test", style] + ["--input=" + text for text in inputs]
    return subprocess.run(arguments, capture_output=True, text=True, check=True, timeout=60).stdout


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
    draggable = browser.evaluate("document.querySelectorAll('#diagram g.stream.input .draggable').length")
    drawn = browser.evaluate(
        "document.querySelectorAll('#diagram g.stream.input g.marble, #diagram g.stream.input line.complete, #diagram g.stream.input g.error').length")
    check("every marble, completion and error of the example's inputs can be dragged", draggable == drawn and drawn > 0, f"{draggable} of {drawn}")
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
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
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
    # 6. Dragging completions and grouped marbles, and a drop onto an occupied frame.
    def drag_by(selector, frames):
        """Drags the input event matching `selector` by `frames` frames of the picture."""
        spot = browser.evaluate(f"""(() => {{
            const e = document.querySelector({json.dumps(selector)});
            if (!e) return null;
            const box = e.getBoundingClientRect();
            return {{x: box.x + box.width / 2, y: box.y + box.height / 2}};
        }})()""")
        if spot is None:
            return False
        step = browser.evaluate("""(async () => {
            const r = await fetch('/api/diagram' + location.search);
            const d = await r.json();
            const svg = document.querySelector('#diagram svg');
            return (d.frameX[2] - d.frameX[1]) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        })()""")
        x, y = spot["x"], spot["y"]
        browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        browser.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
        for fraction in (0.5, 1.0):
            browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + step * frames * fraction, "y": y, "button": "left", "buttons": 1})
        browser.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x + step * frames, "y": y, "button": "left", "clickCount": 1})
        return True

    def input_value(index=0):
        return browser.evaluate(f"document.getElementById('input-{index}').value")

    browser.send("Page.navigate", {"url": ADDRESS + "/?op=map&input=-1-2-%7C"})
    settle(browser)
    check("the completion can be grabbed", drag_by("#diagram g.stream.input .draggable[data-kind='completed']", 1))
    check("dragging the completion moves it in the text",
          browser.wait_for("document.getElementById('input-0').value === '-1-2--|'") and settle(browser), input_value())
    drag_by("#diagram g.stream.input .draggable[data-position='1']", 2)
    check("a drop onto an occupied frame says why",
          browser.wait_for("!document.getElementById('notice').hidden"),
          browser.evaluate("document.getElementById('notice').textContent"))
    notice = browser.evaluate("document.getElementById('notice').textContent")
    check("the reason names what is there and how to group", "already has '2'" in notice and "(21)" in notice, notice)
    check("the refused drop leaves the input as it was", input_value() == "-1-2--|", input_value())
    type_into(browser, 0, "-1-(23)-|")
    settle(browser)
    stacked = browser.evaluate("""(() => {
        const circles = Array.from(document.querySelectorAll('#diagram g.stream.output g.marble circle'));
        return {count: circles.length, xs: new Set(circles.map(c => c.getAttribute('cx'))).size,
                bands: document.querySelectorAll('#diagram g.stream.output g.group').length};
    })()""")
    check("the picture stacks the marbles of one instant at one x, on one band",
          stacked == {"count": 3, "xs": 2, "bands": 1}, str(stacked))
    check("a marble in a group can be grabbed", drag_by("#diagram g.stream.input .draggable[data-position='5']", 1))
    check("dragging it out of its group moves it to a frame of its own",
          browser.wait_for("document.getElementById('input-0').value === '-1-23|'") and settle(browser), input_value())
    # 7. Messages and hints in the page's words.
    type_into(browser, 0, "--1-x|")
    settle(browser, "problem")
    message = browser.evaluate("document.getElementById('input-problem-0').textContent")
    check("a value the example cannot take is named in the page's words",
          message.startswith("Input 1 (source) of map: 'x' at position 4") and "--input" not in message, message)
    hint = browser.evaluate("document.getElementById('input-hint-0').textContent")
    check("the hint says what map's input takes", "digit 0-9" in hint, hint)
    check("the input's length limit comes from the server",
          browser.evaluate("document.getElementById('input-0').maxLength") == browser.evaluate(
              "fetch('/api/limits').then(r => r.json()).then(l => l.maximumInputLength)"))
    def text_at(query, element):
        """The text of `element` once the page at `query` has settled ('' when hidden)."""
        browser.send("Page.navigate", {"url": ADDRESS + query})
        settle(browser)
        return browser.evaluate(f"(e => e.hidden ? '' : e.textContent)(document.getElementById('{element}'))")

    hint = text_at("/?op=combineLatest", "input-hint-1")
    check("the hint says what combineLatest's second input takes", "a value" in hint, hint)

    # 8. An operator the gallery does not have.
    notice = text_at("/?op=nosuch", "notice")
    check("?op=nosuch says there is no such operator", "no operator called 'nosuch'" in notice and "shows map" in notice, notice)
    notice = text_at("/?op=fliter", "notice")
    check("a near miss is offered", "Did you mean filter?" in notice, notice)

    # 9. Copy as a test: the code rxmarbles --test writes for the diagram on screen.
    browser.send("Page.navigate", {"url": ADDRESS + "/?op=scan&input=9999%7C"})
    settle(browser)
    browser.evaluate("document.getElementById('copy-test').click()")
    check("copy as a test shows the test", browser.wait_for("!document.getElementById('test-code').hidden"))
    shown = browser.evaluate("document.getElementById('test-code').textContent")
    check("the XCTest is what rxmarbles --test xctest writes", shown == tool_test("scan", ["9999|"], "xctest"), shown[:300])
    browser.evaluate("(() => { const s = document.getElementById('test-style'); s.value = 'swift-testing'; s.dispatchEvent(new Event('change')); })()")
    shown = browser.evaluate("document.getElementById('test-code').textContent")
    check("the Swift Testing test is what rxmarbles --test swift-testing writes",
          shown == tool_test("scan", ["9999|"], "swift-testing"), shown[:300])
    check("the page says whether it copied", browser.wait_for("document.getElementById('copied').textContent !== ''"))

    # 10. Chains and comparisons, computed by the server, as rxmarbles draws them.
    chain_input = "-1-2-3-4-5-6|"
    browser.send("Page.navigate", {"url": ADDRESS + "/?op=filter&chain=map,debounce&input=" + chain_input.replace("|", "%7C")})
    check("a chain from the address loads", settle(browser))
    expected = tool_events("", [chain_input], ("--chain", "filter,map,debounce"))
    check("the chain's events are those rxmarbles --chain lists", page_events(browser) == expected, f"{page_events(browser)} vs {expected}")
    check("the chain draws a box per operator, a stream per stage",
          browser.evaluate("[document.querySelectorAll('#diagram g.operator').length, document.querySelectorAll('#diagram g.stream.stage').length]") == [3, 2])
    browser.evaluate("document.getElementById('copy-test').click()")
    shown = browser.evaluate("document.getElementById('test-code').textContent")
    check("a chain is copied as a test per stage, as rxmarbles --test writes it",
          shown == subprocess.run([RXMARBLES, "--chain", "filter,map,debounce", "--test", "xctest", "--input=" + chain_input],
                                  capture_output=True, text=True, check=True, timeout=60).stdout, shown[:200])
    check("the chain's controls show it",
          browser.evaluate("[document.getElementById('combine-mode').value, document.getElementById('combine-with').value]") == ["chain", "map,debounce"])
    browser.send("Page.navigate", {"url": ADDRESS + "/?op=flatMap"})
    settle(browser)
    browser.evaluate("(() => { const m = document.getElementById('combine-mode'); m.value = 'compare'; m.dispatchEvent(new Event('change')); })()")
    browser.evaluate("document.getElementById('combine-with').focus()")
    browser.send("Input.insertText", {"text": "concatMap, flatMapLatest"})
    check("choosing operators to compare gets a new diagram",
          browser.wait_for("document.querySelectorAll('#diagram g.operator').length === 3") and settle(browser))
    expected = tool_events("", [], ("--compare", "flatMap,concatMap,flatMapLatest"))
    check("the comparison's events are those rxmarbles --compare lists", page_events(browser) == expected, f"{page_events(browser)} vs {expected}")
    check("the differences are marked", browser.evaluate("document.querySelectorAll('#diagram rect.differs').length") > 0)
    check("the address holds the comparison", "compare=concatMap%2CflatMapLatest" in browser.evaluate("location.search"),
          browser.evaluate("location.search"))
    browser.screenshot("playground-compare.png")
    browser.evaluate("document.getElementById('copy-test').click()")
    shown = browser.evaluate("document.getElementById('test-code').textContent")
    compared = subprocess.run([RXMARBLES, "--compare", "flatMap,concatMap,flatMapLatest", "--test", "xctest"],
                              capture_output=True, text=True, check=True, timeout=60).stdout
    check("a comparison is copied as a test per operator, as rxmarbles --test writes it", shown == compared, shown[:200])
    browser.evaluate("document.getElementById('combine-with').select()")
    browser.send("Input.insertText", {"text": "combineLatest"})
    check("a comparison of operators that take other inputs is refused in words", settle(browser, "problem")
          and "compared operators take the same inputs" in browser.evaluate("document.getElementById('problem').textContent"),
          browser.evaluate("document.getElementById('problem').textContent"))

    # 11. The diagram fits the window, wide and narrow, even for a long input.
    long_input = "-1-2-3-4-5-6-7-8-9" * 4 + "|"
    for width, height in ((1280, 900), (400, 900)):
        browser.resize(width, height)
        browser.send("Page.navigate", {"url": ADDRESS + "/?op=combineLatest&input=" + long_input.replace("|", "%7C") + "&input=--a--b%7C"})
        check(f"the page loads at {width} px", settle(browser))
        fit = browser.evaluate("""(() => {
            const svg = document.querySelector('#diagram svg').getBoundingClientRect();
            const box = document.getElementById('diagram').getBoundingClientRect();
            const call = document.querySelector('#diagram g.operator text').getBoundingClientRect();
            return {svgLeft: svg.left, svgRight: svg.right, boxWidth: box.width, svgWidth: svg.width,
                    callLeft: call.left, callRight: call.right, window: window.innerWidth,
                    scroll: document.documentElement.scrollWidth};
        })()""")
        check(f"at {width} px the diagram lies inside the window",
              fit["svgLeft"] >= 0 and fit["svgRight"] <= fit["window"] and fit["scroll"] <= fit["window"], str(fit))
        check(f"at {width} px the diagram fills its box", fit["svgWidth"] >= 0.9 * (fit["boxWidth"] - 12), str(fit))
        check(f"at {width} px the operator's call is on screen", fit["callLeft"] >= 0 and fit["callRight"] <= fit["window"], str(fit))
        check(f"a screenshot at {width} px was written", browser.screenshot(f"playground-{width}-long.png") > 10000)
        browser.send("Page.navigate", {"url": ADDRESS + "/?op=combineLatest&input=-1--2-3%7C&input=--a--b%7C"})
        settle(browser)
        check(f"a screenshot of an example at {width} px was written", browser.screenshot(f"playground-{width}.png") > 10000)

    # 12. The lanes page: the recording the server was started with, one opened with the
    # file picker, and one that cannot be read.
    if LANES:
        browser.resize(1280, 1000)
        browser.send("Page.navigate", {"url": ADDRESS + "/?op=map"})
        settle(browser)
        browser.evaluate("document.querySelector('a[href=\"/lanes\"]').click()")
        check("the playground links to the lanes page", browser.wait_for("location.pathname === '/lanes'"))
        check("the lanes page draws the recording the server was given", settle(browser))
        drawn = browser.evaluate("document.getElementById('lanes-drawing').textContent")
        tool = subprocess.run([RXMARBLES, "lanes", LANES, "--color", "never"], capture_output=True, text=True, check=True, timeout=60).stdout
        check("the page's text drawing is what rxmarbles lanes prints", drawn == tool, drawn[:300])
        lanes = browser.evaluate("Array.from(document.querySelectorAll('#diagram g.lane')).map(g => g.dataset.name)")
        check("the picture has a line per subscription", lanes == ["email", "enabled", "enabled #2", "signIn", "signIn #2"], str(lanes))
        shown = browser.evaluate("""(() => {
            const q = (s) => document.querySelectorAll('#diagram ' + s).length;
            return {gaps: q('rect.gap'), threads: q('g.thread'), errors: q('g.error'), completed: q('g.completed'),
                    disposed: q('g.disposed'), name: document.getElementById('lanes-name').textContent};
        })()""")
        check("the picture shows the idle stretch, the threads and every end",
              shown["gaps"] == 1 and shown["threads"] > 0 and shown["errors"] == 1 and shown["completed"] == 1
              and shown["disposed"] == 1 and shown["name"] == os.path.basename(LANES), str(shown))
        check("a screenshot of the lanes page was written", browser.screenshot("lanes.png") > 10000)

        # A recording cut short, opened with the file picker.
        with open(LANES) as recording:
            lines = recording.read().splitlines()
        cut = os.path.join(OUTPUT, "cut-short.lanes")
        with open(cut, "w") as short:
            short.write("\n".join(lines[:-3]) + "\n")
        document = browser.send("DOM.getDocument")
        picker = browser.send("DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": "#lanes-file"})
        browser.send("DOM.setFileInputFiles", {"nodeId": picker["nodeId"], "files": [cut]})
        check("a recording cut short is reported", settle(browser, "problem"))
        message = browser.evaluate("document.getElementById('problem').textContent")
        check("the message names the line and says the file is cut short",
              message.startswith(f"line {len(lines) - 3}: ") and "cut short" in message, message)
        check("the picture before it is marked stale", browser.evaluate("document.getElementById('diagram').classList.contains('stale')"))

        # Pasted text with a mistake at one place: the line, the character marked.
        bad = "\n".join(lines).replace('next "alice"', "next alice")
        browser.evaluate("document.getElementById('paste-box').open = true")
        browser.evaluate(f"document.getElementById('lanes-text').value = {json.dumps(bad)}")
        browser.evaluate("document.getElementById('draw').click()")
        time.sleep(0.3)
        browser.wait_for("document.getElementById('problem').textContent.includes('double quotes')")
        message = browser.evaluate("document.getElementById('problem').textContent")
        mark = browser.evaluate("(document.querySelector('#problem-line mark') || {}).textContent")
        check("a pasted recording's mistake is named with its line and column", "column 29" in message and "double quotes" in message, message)
        check("the character at fault is marked on its line", mark == "a", repr(mark))
        check("a screenshot of a problem in a recording was written", browser.screenshot("lanes-problem.png") > 10000)
        browser.evaluate(f"document.getElementById('lanes-text').value = {json.dumps(chr(10).join(lines))}")
        browser.evaluate("document.getElementById('draw').click()")
        check("pasted text is drawn once it is right", settle(browser)
              and browser.evaluate("document.getElementById('lanes-drawing').textContent") == tool)
finally:
    browser.close()

print(f"browser: {results['passed']} passed, {results['failed']} failed")
sys.exit(1 if results["failed"] else 0)
