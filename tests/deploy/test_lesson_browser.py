"""A teacher's whole lesson in Chromium, through `make classroom` on the network address it
prints: a projector tab at 1280 x 720 (and 1024 x 768), the teacher's console beside it in
the same browser, and three phones at 390 x 844.

The teacher goes live (the join screen: code and QR code on screen together, decoded from a
screenshot at both sizes), the phones join, the teacher steps, changes the example at step
4 from the console, takes the class to the Scaling lab and moves its d_k slider on the
projector, then to Exercises, asks a question there, reveals, reloads the projector tab and
goes on driving from it, and ends the class. Every phone follows each change; each follow
is timed from the teacher's click to the phone's drawn page (printed, and written to
test-artifacts/lesson-follow.json; bench/RESULTS.md records them). Then a forged
X-Forwarded-For through the same nginx: the join limiter keys the device by the address
nginx saw. Then a second class on the same classroom, with the Streamlit process that
holds it killed in the middle of a question: every page comes back within 10 s, the answers
given before it all still count (test-artifacts/lesson-restart.json). Marked serial: it
runs alone, after the parallel suite.

The classroom runs in a network namespace of the module's own (tests/deploy/netns.py, root
and iproute2): "the network address make classroom prints" is the namespace's, so no test
sends anything to an interface of this machine it did not create.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from classroom_server import Classroom, start_classroom
from netns import Netns, own_network

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from helpers import (
    ARTIFACTS_DIR,
    CHROMIUM_ARGS,
    decode_qr,
    find_chromium,
    wait_idle,
)
from playwright.sync_api import Page, expect, sync_playwright

from attention_ui.storage.store import open_store

pytestmark = [pytest.mark.e2e, pytest.mark.serial]
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                       "(KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"}  # fmt: skip
FOLLOW_MS = 20_000  # a functional wait; the times themselves are recorded, not asserted
PROGRESS = "[data-testid='stProgress']"


@pytest.fixture(scope="module")
def network() -> Iterator[Netns]:
    with own_network() as net:
        yield net


@pytest.fixture(scope="module")
def lesson_room(tmp_path_factory: pytest.TempPathFactory, network: Netns,
                ) -> Iterator[tuple[Classroom, str, str]]:  # fmt: skip
    """make classroom on every address of a network namespace of the module's own: the
    "network address" it prints for the class (its default route's source) is the
    namespace's, which the browsers here reach through the veth pair (issue 45, item 10:
    the test opened this machine's own network interface). The QR code the projector shows
    is checked to hold that address."""
    if find_chromium() is None:
        pytest.skip("no chromium: apt-get install -y chromium")
    db = tmp_path_factory.mktemp("lesson") / "live.db"
    with start_classroom("0.0.0.0", {"LIVE_STORE": f"sqlite://{db}"}, network) as room:
        yield room, room.url, f"sqlite://{db}"


def on_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return bool(box and box["y"] >= 0 and box["x"] >= 0 and box["y"] + box["height"]
                <= size["height"] and box["x"] + box["width"] <= size["width"])  # fmt: skip


def step_shown(k: int) -> Callable[[Page], None]:
    return lambda p: expect(p.locator(PROGRESS).filter(has_text=f"Step {k} of").first
                            ).to_be_visible(timeout=FOLLOW_MS)  # fmt: skip


def on_page(path: str, heading: str) -> Callable[[Page], None]:
    def drawn(p: Page) -> None:
        p.wait_for_url(re.compile(rf"/{path}(\?|$)"), timeout=FOLLOW_MS)
        expect(p.locator("[data-testid='stMain'] h1").first).to_have_text(
            heading, timeout=FOLLOW_MS
        )

    return drawn


def choose(page: Page, key: str, option: str) -> None:
    """Pick ``option`` of a select box by typing it, as a teacher on a keyboard would."""
    box = page.locator(f".st-key-{key} input")
    expect(box).to_be_visible()
    wait_idle(page)
    box.click()
    box.fill(option)
    expect(page.get_by_role("option").first).to_contain_text(option)
    box.press("Enter")
    wait_idle(page)


# In a phone's page: the wall-clock time of the first frame in which ``ok`` holds (every
# frame, not Playwright's polling, whose intervals grow to a second). In the teacher's page:
# the time of the click or key press itself (Playwright's click first waits for the button
# to be stable, which took up to 1.8 s on a busy projector page).
SEEN_AT = """(ok) => {
  window.__alSeenAt = 0;
  const holds = new Function(`return (${ok});`);
  const look = () => {
    try { if (holds()) { window.__alSeenAt = Date.now(); return; } } catch (e) {}
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
CLICKED_AT = """() => {
  window.__alClickAt = 0;
  const at = () => { window.__alClickAt = window.__alClickAt || Date.now(); };
  for (const kind of ["pointerdown", "keydown"]) {
    document.addEventListener(kind, at, { capture: true, once: true });
  }
}"""


def step_seen(k: int) -> str:
    return f"document.body.textContent.includes('Step {k} of')"


def page_seen(path: str, heading: str) -> str:
    title = "document.querySelector(\"[data-testid='stMain'] h1\")?.textContent"
    return f"location.pathname.endsWith('/{path}') && ({title} || '').includes('{heading}')"


def slide_to_128(projector: Page) -> None:
    """The teacher's d_k slider one notch right (64 -> 128), with the keyboard.

    The projector's own timed runs can redraw the slider just as it was focused (the
    arrow then went nowhere: the projector stayed at 64 and no phone could follow, 1 run
    in 4); a teacher who sees the thumb not move presses again, and so does this. The
    thumb's label changes in the browser at once, before any run, so a second press never
    follows a first one that counted.
    """
    slider = projector.locator(".st-key-lab_dk [data-testid='stSlider'] input[type='range']")
    label = projector.locator(".st-key-lab_dk [data-testid='stSliderThumbValue']")
    for _ in range(3):
        slider.first.focus()
        projector.keyboard.press("ArrowRight")
        try:
            expect(label.first).to_have_text("128", timeout=2_000)
            return
        except AssertionError:
            continue
    raise AssertionError("the projector's d_k slider never moved to 128")


class Timer:
    """Each change: from the teacher's click to the first frame in which each phone shows
    it (ms), as the phone's own clock saw it (one machine: one clock)."""

    def __init__(self, phones: list[Page]) -> None:
        self.phones, self.times = phones, {}

    def follow(self, name: str, where: Page, click: Callable[[], None],
               drawn: Callable[[Page], None], seen: str) -> None:  # fmt: skip
        for phone in self.phones:
            phone.evaluate(SEEN_AT, seen)
        where.evaluate(CLICKED_AT)
        click()
        for phone in self.phones:
            drawn(phone)  # the test's own check of what the phone shows
            phone.wait_for_function("() => window.__alSeenAt > 0", timeout=FOLLOW_MS)
        clicked = where.evaluate("() => window.__alClickAt")
        assert clicked, f"{name}: the click never reached the page"
        self.times[name] = [p.evaluate("() => window.__alSeenAt") - clicked for p in self.phones]


def test_a_teacher_runs_a_whole_lesson_over_the_network_address(lesson_room, tmp_path) -> None:
    _, base, _ = lesson_room
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        teacher = browser.new_context(viewport=PROJECTOR)  # one browser: projector, console
        projector = teacher.new_page()
        projector.goto(base + "/present")
        wait_idle(projector)
        projector.locator(".st-key-live_start button").first.click()

        # the join screen fits a projector: code and QR code together, nothing to scroll
        screen = projector.locator(".st-key-live_join_screen")
        expect(screen).to_be_visible(timeout=FOLLOW_MS)
        wait_idle(projector)
        code = projector.locator(".al-code").first.inner_text().strip()
        assert re.fullmatch(r"[A-Z0-9]{5}", code) and "teach" not in projector.url
        for size in (PROJECTOR, {"width": 1024, "height": 768}):
            projector.set_viewport_size(size)
            projector.wait_for_timeout(300)
            png = ARTIFACTS_DIR / f"lesson-join-{size['width']}x{size['height']}.png"
            projector.screenshot(path=str(png))
            assert decode_qr(png) == f"{base}/?join={code}"
            assert on_screen(projector, ".al-code") and on_screen(projector, "img.al-qr")
        projector.set_viewport_size(PROJECTOR)

        console = teacher.new_page()  # the same browser's cookie makes it the teacher's
        console.goto(base + "/console")
        expect(console.locator(".st-key-console_next button")).to_be_visible(timeout=FOLLOW_MS)
        assert console.get_by_text(f"Live class {code}").count() == 1

        phones = [browser.new_context(**PHONE).new_page() for _ in range(3)]
        for phone in phones:
            phone.goto(f"{base}/?join={code.lower()}")
        for phone in phones:
            step_shown(1)(phone)
        expect(console.get_by_text("3 students following")).to_be_visible(timeout=FOLLOW_MS)
        console.locator(".st-key-console_join button").click()  # Start the lesson
        expect(screen).to_be_hidden(timeout=FOLLOW_MS)
        timer = Timer(phones)

        projector.locator(".st-key-present_tokens").first.click()  # focus the slide
        for k in (2, 3, 4):
            timer.follow(f"step {k}", projector, projector.locator(
                ".st-key-present_next button").click, step_shown(k), step_seen(k))  # fmt: skip
        assert not projector.locator(".st-key-live_pause_btn, .st-key-live_end").count()

        # the example, changed from the console at step 4: every phone and the projector
        cat_mat = parse_qs(urlsplit(projector.url).query).get("s", [""])[0]  # before the change
        console.locator("summary", has_text="Change the example").click()
        choose(console, "console_preset", "Which word does 'it' look at")
        hungry = lambda p: p.wait_for_function(  # noqa: E731
            "() => document.body.textContent.includes('jungle') && "
            "document.body.innerText.includes('Step 4 of')",
            timeout=FOLLOW_MS,
        )
        timer.follow("example at step 4", console, console.locator(
            ".st-key-console_preset_load button").click, hungry,
            "document.body.textContent.includes('jungle') && " + step_seen(4))  # fmt: skip
        hungry(projector)  # the projector follows its console too (it was on step 4 already)
        s_of = lambda p: parse_qs(urlsplit(p.url).query).get("s", [""])[0]  # noqa: E731
        projector.wait_for_function(
            "(old) => !location.search.includes(old)", arg=cat_mat, timeout=FOLLOW_MS
        )  # its address follows at its run's end
        for phone in phones:
            phone.wait_for_function("(s) => location.search.includes(s)", arg=s_of(projector),
                                    timeout=FOLLOW_MS)  # fmt: skip

        # to the Scaling lab (the console), then its d_k slider (the projector)
        choose(console, "console_go_to", "Scaling lab")
        timer.follow("page: Scaling lab", console, console.locator(
            ".st-key-console_go_btn button").click, on_page("scaling-lab", "Scaling lab"),
            page_seen("scaling-lab", "Scaling lab"))  # fmt: skip
        on_page("scaling-lab", "Scaling lab")(projector)
        wait_idle(projector)
        timer.follow(
            "lab pick: d_k 128",
            projector,
            lambda: slide_to_128(projector),
            lambda p: p.wait_for_url(re.compile(r"[?&]lab_dk=128"), timeout=FOLLOW_MS),
            "(document.querySelector('.st-key-lab_dk')?.textContent || '').includes('128')",
        )
        for phone in phones:
            expect(phone.locator(".st-key-lab_dk")).to_contain_text("128", timeout=FOLLOW_MS)

        # to Exercises, and a question there
        choose(console, "console_go_to", "Exercises")
        timer.follow("page: Exercises", console, console.locator(
            ".st-key-console_go_btn button").click, on_page("exercises", "Exercises"),
            page_seen("exercises", "Exercises"))  # fmt: skip
        choose(console, "live_ask_stage", "attention weight")  # it -> animal: 0.844
        timer.follow("question", console, console.locator(".st-key-live_ask button").click,
                     lambda p: expect(p.locator(".st-key-live_answer input")).to_be_visible(
                         timeout=FOLLOW_MS),
                     "!!document.querySelector('.st-key-live_answer input')")  # fmt: skip
        for phone, typed in zip(phones, ("0.84", "0.98", "0.5"), strict=True):
            box = phone.locator(".st-key-live_answer input")
            box.fill(typed)
            box.press("Enter")
            expect(phone.get_by_text(f"Your answer: {typed}")).to_be_visible(timeout=FOLLOW_MS)
        tally = console.locator(".st-key-live_tally:not([data-retained])")
        expect(tally.filter(has_text="3 answered")).to_have_count(1, timeout=FOLLOW_MS)
        bars = (
            tally.filter(has_text="3 answered")
            .locator(".js-plotly-plot")
            .evaluate("p => Object.fromEntries(p.data[0].y.map((y, i) => [y, p.data[0].x[i]]))")
        )
        assert bars["right"] == 1 and bars["used the unscaled scores in softmax"] == 1, bars
        # not projected before the reveal: the count, but no chart
        expect(projector.get_by_text("3 of 3 students answered")).to_be_visible(timeout=FOLLOW_MS)
        assert projector.locator(".st-key-live_tally_projected").count() == 0
        timer.follow("reveal", console, console.locator(".st-key-live_reveal button").click,
                     lambda p: expect(p.get_by_text("The answer:").first).to_be_visible(
                         timeout=FOLLOW_MS),
                     "document.body.textContent.includes('The answer:')")  # fmt: skip
        expect(phones[2].locator(".st-key-live_question")).to_contain_text("off by more than")
        assert "adds up" not in phones[2].locator(".st-key-live_question").inner_text()
        console.locator(".st-key-live_close button").click()

        # F5 on the projector: still the teacher, and it drives on from where it is
        projector.reload()
        expect(projector.locator(".st-key-live_teacher_bar")).to_contain_text(
            f"Live class {code}", timeout=FOLLOW_MS)  # fmt: skip
        assert "teach" not in projector.url
        assert "/exercises" in projector.url  # back where the class is
        menu = projector.locator(".st-key-nav a", has_text="6. Softmax").first
        timer.follow("page after a reload: Softmax", projector, menu.click,
                     on_page("softmax", "6. Softmax"),
                     page_seen("softmax", "6. Softmax"))  # fmt: skip
        for name, page in (("projector", projector), ("console", console), ("phone", phones[0])):
            wait_idle(page)
            page.screenshot(path=str(ARTIFACTS_DIR / f"lesson-{name}.png"))

        # the end: every phone knows within about a second, and is not offered Go live
        console.locator(".st-key-console_end button").first.click()
        timer.follow("end", console, console.locator(".st-key-live_end button").click,
                     lambda p: expect(p.locator(".st-key-live_bar")).to_have_count(
                         0, timeout=FOLLOW_MS),
                     "!document.querySelector('.st-key-live_bar')")  # fmt: skip
        expect(projector.locator(".st-key-live_teacher_bar")).to_have_count(0, timeout=FOLLOW_MS)
        browser.close()
    (ARTIFACTS_DIR / "lesson-follow.json").write_text(json.dumps(timer.times, indent=1))
    print("\nfollow times (ms, per phone):", json.dumps(timer.times))


def test_a_forged_forwarded_for_does_not_dodge_the_join_limiter(lesson_room, network) -> None:
    """Through make classroom's nginx, a device that writes its own X-Forwarded-For is still
    counted under the address nginx saw (nginx appends it; the app takes the last entry)."""
    _, base, store_url = lesson_room
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        page = browser.new_context(extra_http_headers={"X-Forwarded-For": "203.0.113.66"},
                                   **PHONE).new_page()  # fmt: skip
        page.goto(f"{base}/?join=ZZZZZ")  # no such class: one wrong code
        expect(page.get_by_text("No live class has the code ZZZZZ")).to_be_visible(
            timeout=FOLLOW_MS)  # fmt: skip
        browser.close()
    store = open_store(store_url)
    minute = int(time.time() // 60)
    tries = lambda ip: [store.get(f"tries:{ip}:{m}") for m in (minute - 1, minute)]  # noqa: E731
    assert not any(tries("203.0.113.66")), "keyed by the header the device wrote"
    assert any(tries(network.peer)), "not keyed by the address nginx saw"


def class_backend(room: Classroom, network: Netns) -> tuple[int, int]:
    """(port, pid) of the Streamlit process that holds the class: every browser here comes
    from one address, so nginx's hash sends them all to one process, the one with the most
    connections (the pages' websockets) from nginx."""

    def connections(port: int) -> int:
        out = subprocess.run(network.run(["ss", "-Htn", "state", "established",
                                          f"( sport = :{port} )"]),
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        return len(out.splitlines())

    port = max(room.backend_ports, key=connections)
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        ours = b"serve.py" in argv and str(port).encode() in argv and entry.name.isdigit()
        if ours and os.getpgid(int(entry.name)) == room.proc.pid:  # make classroom's group
            return port, int(entry.name)
    raise AssertionError(f"no Streamlit process found on port {port}")


def test_a_class_follows_again_when_its_process_is_killed(lesson_room, network) -> None:
    """One Streamlit process of make classroom killed (SIGKILL, as the OOM killer does) in
    the middle of a question (issue 45, item 2): the classroom goes on, the process is
    started again, every page is connected again within 10 s of the kill (on the other
    process) and follows the teacher's next change, and the answers given before the kill
    are all still in the tally."""
    room, base, _ = lesson_room
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        teacher = browser.new_context(viewport=PROJECTOR)
        projector = teacher.new_page()
        projector.goto(base + "/present")
        wait_idle(projector)
        projector.locator(".st-key-live_start button").first.click()
        expect(projector.locator(".al-code").first).to_be_visible(timeout=FOLLOW_MS)
        code = projector.locator(".al-code").first.inner_text().strip()
        console = teacher.new_page()
        console.goto(base + "/console")
        expect(console.locator(".st-key-console_next button")).to_be_visible(timeout=FOLLOW_MS)
        phones = [browser.new_context(**PHONE).new_page() for _ in range(3)]
        for phone in phones:
            phone.goto(f"{base}/?join={code}")
        for phone in phones:
            step_shown(1)(phone)
        expect(console.get_by_text("3 students following")).to_be_visible(timeout=FOLLOW_MS)
        console.locator(".st-key-console_join button").click()  # Start the lesson
        choose(console, "console_go_to", "Exercises")
        console.locator(".st-key-console_go_btn button").click()
        for phone in phones:
            on_page("exercises", "Exercises")(phone)
        choose(console, "live_ask_stage", "attention weight")
        console.locator(".st-key-live_ask button").click()
        for phone, typed in zip(phones[:2], ("0.84", "0.5"), strict=True):
            answer(phone, typed)

        port, pid = class_backend(room, network)
        for page in (*phones, console):
            page.evaluate(RECONNECTED_AT)
        killed = time.time() * 1000
        os.kill(pid, signal.SIGKILL)
        back_s = []
        for page in (*phones, console):  # each lost its process, and came back on the other
            page.wait_for_function("() => window.__alBackAt > 0", timeout=FOLLOW_MS)
            back_s.append((page.evaluate("() => window.__alBackAt") - killed) / 1000)
        tally = console.locator(".st-key-live_tally:not([data-retained])")
        # the answers given before the kill are in the store, not in the process: all kept
        expect(tally.filter(has_text="2 answered")).to_have_count(1, timeout=FOLLOW_MS)
        # An answer sent from a page that has just come back on the other process: in 2 of
        # 4 runs it was never recorded (its click was the new session's first message, and
        # Streamlit runs no callback of a widget that session has not drawn yet). Fixed in
        # live/ask_phone.student_card; tests/state/test_lost_process.py replays exactly
        # that first message at the protocol, where it is deterministic.
        for phone in phones:
            phone.evaluate(SEEN_AT, "document.body.textContent.includes('The answer:')")
        console.evaluate(CLICKED_AT)
        console.locator(".st-key-live_reveal button").click()
        for phone in phones:
            phone.wait_for_function("() => window.__alSeenAt > 0", timeout=FOLLOW_MS)
        clicked = console.evaluate("() => window.__alClickAt")
        reveal_ms = [p.evaluate("() => window.__alSeenAt") - clicked for p in phones]
        seen = {"back_s (3 phones, console)": back_s, "reveal_ms": reveal_ms}
        print("\nafter the kill:", json.dumps(seen))
        ARTIFACTS_DIR.mkdir(exist_ok=True)
        (ARTIFACTS_DIR / "lesson-restart.json").write_text(json.dumps(seen))
        assert max(back_s) <= 10, seen  # every phone follows again within 10 s
        for _ in range(100):  # the killed process, started again by make classroom
            if healthy_inside(network, port):
                break
            time.sleep(0.3)
        else:
            raise AssertionError(f"the process on port {port} was not started again")
        assert room.proc.poll() is None, "the classroom stopped"
        console.locator(".st-key-console_end button").first.click()
        console.locator(".st-key-live_end button").click()
        browser.close()


# The moment a page is connected again after it lost its server (Streamlit's own
# connection state on stApp), by the page's clock, in every frame.
RECONNECTED_AT = """() => {
  window.__alBackAt = 0;
  let lost = false;
  const look = () => {
    const app = document.querySelector("[data-testid='stApp']");
    const state = app && app.getAttribute("data-test-connection-state");
    if (state && state !== "CONNECTED") lost = true;
    if (lost && state === "CONNECTED") { window.__alBackAt = Date.now(); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def answer(phone: Page, typed: str) -> None:
    box = phone.locator(".st-key-live_answer input")
    wait_idle(phone)
    expect(box).to_be_visible(timeout=FOLLOW_MS)
    box.fill(typed)
    # the Send button, as a phone's user taps it
    phone.locator(".st-key-live_answer_send button").click()
    expect(phone.get_by_text(f"Your answer: {typed}")).to_be_visible(timeout=FOLLOW_MS)


def healthy_inside(network: Netns, port: int) -> bool:
    """The backend's health check from inside the namespace (it listens on its loopback)."""
    probe = f"import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/_stcore/health')"
    done = subprocess.run(network.run([sys.executable, "-c", probe]), capture_output=True)
    return done.returncode == 0
