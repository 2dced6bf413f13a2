"""``kernelscope share`` (issue 34): one self-contained page, checked in a real browser.

Headless Chromium (Debian's, ``browser_support``) opens each page from disk with the network
switched off, over its DevTools protocol: a real mouse click on a source line must mark that
line's SASS rows (as many as the window's ``KernelView.instructions_at`` gives), a click on a
SASS row its source line; a hostile kernel name and source line stay text; light and dark
follow the colour-scheme preference; nothing is requested but the file itself.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from browser_support import Chromium, chromium
from cli_support import run_cli
from paths_support import H200_REPORT, data_path
from PIL import Image

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.share import share_page
from kernelscope.core.share.page import json_for_script
from kernelscope.core.view import open_document
from kernelscope.core.workspace import Workspace

COMPARE = data_path("compare")  # its reports unpacked beside its workspaces
HOSTILE = '</script><img src=x onerror="window.pwned=1"><b>k</b>'
HOSTILE_LINE = '  // </script><script>window.pwned=2</script><img src=y onerror="window.pwned=3">'


@pytest.fixture(scope="module")
def browser() -> Chromium:
    chromium()  # skips without one
    with Chromium() as b:
        yield b


def _data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="ks-data">(.*?)</script>', text, re.S)
    assert block is not None
    return json.loads(block.group(1))


def _hostile_workspace(tmp_path: Path) -> Path:
    """A copy of the cnn3 build whose transpose kernel has a name and a source line made of
    markup and script tags (a kernel name is any string the generator chose)."""
    ws = tmp_path / "hostile.kscope"
    shutil.copytree(COMPARE / "cnn3_b8.kscope", ws)
    manifest = json.loads((ws / "manifest.json").read_text())
    for k in manifest["kernels"]:
        if k["name"] == "transpose_kernel":
            k["name"] = HOSTILE
    (ws / "manifest.json").write_text(json.dumps(manifest))
    sass = json.loads((ws / "sass.json").read_text())
    sass[HOSTILE] = sass.pop("transpose_kernel")
    (ws / "sass.json").write_text(json.dumps(sass))
    source = ws / "src" / "kernels" / "transpose_kernel.cu"
    lines = source.read_text().splitlines()
    lines[2] += HOSTILE_LINE  # line 3 has instructions: its row is linked to SASS
    source.write_text("\n".join(lines) + "\n")
    return ws


def test_click_on_a_source_line_marks_its_sass_rows_and_back(
    browser: Chromium, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    rc, out, err = run_cli(["share", H200_REPORT, "-o", page], capsys)
    assert rc == 0, err
    assert f"wrote {page}" in out
    session = open_document(H200_REPORT)
    slowest = max(session.document.summaries, key=lambda s: s.duration_ns or 0.0)
    view = session.kernel(slowest.name)
    lines = view.file_metrics(view.main_file)
    line = max(lines, key=lambda n: len(view.instructions_at(view.main_file, n)))
    expected = view.instructions_at(view.main_file, line)
    assert len(expected) > 1

    browser.open(f"{page.as_uri()}#kernel={slowest.name}")
    assert browser.evaluate("document.body.dataset.ready") == "1"
    assert browser.evaluate("document.getElementById('kernel').value") == slowest.name
    browser.click(f"#L{line}")
    marked = browser.evaluate(
        "[...document.querySelectorAll('#sass tr.linked')].map(r => Number(r.id.slice(1)))"
    )
    assert marked == expected
    assert browser.evaluate(f"document.getElementById('L{line}').classList.contains('sel')")
    assert f":{line} — {len(expected)} SASS instructions" in browser.evaluate(
        "document.getElementById('where').textContent"
    )
    # the other way: a SASS row of another line marks that line
    other = next(
        i
        for i, insn in enumerate(view.instructions)
        if insn.kernel_line and insn.kernel_line[1] != line
    )
    browser.click(f"#S{other}")
    assert browser.evaluate(
        "[...document.querySelectorAll('#source tr.sel')].map(r => Number(r.dataset.line))"
    ) == [view.location_of(other)[1]]
    assert browser.evaluate(f"document.getElementById('S{other}').classList.contains('sel')")
    assert browser.errors() == []
    # with the network off, the page loaded nothing but itself
    assert [u.split("#")[0] for u in browser.requests()] == [page.as_uri()]


def test_the_page_is_readable_light_and_dark_at_1280(tmp_path: Path) -> None:
    """Screenshots at 1280x900: the kernel list, the source and the SASS are on screen, light
    on a light background by default and light text on a dark one for a dark preference."""
    page = share_page(open_document(H200_REPORT), tmp_path / "page.html").path
    backgrounds = {}
    for dark in (False, True):
        with Chromium(dark=dark) as b:
            b.open(page.as_uri())
            assert b.errors() == []
            assert b.evaluate("document.documentElement.scrollWidth") <= 1280  # no side scroll
            shot = b.screenshot(tmp_path / f"{'dark' if dark else 'light'}.png")
            # the code panes are within the first screen
            top = b.evaluate("document.getElementById('source').getBoundingClientRect().top")
            assert top < 900
        image = Image.open(shot).convert("L")
        assert image.size == (1280, 900)
        backgrounds[dark] = image.getpixel((2, 2))  # the header's
        assert image.getextrema()[1] - image.getextrema()[0] > 150  # text on a background
    assert backgrounds[False] > 200 and backgrounds[True] < 60


def test_hostile_kernel_name_and_source_line_stay_text(browser: Chromium, tmp_path: Path) -> None:
    ws = _hostile_workspace(tmp_path)
    page = share_page(open_document(ws), tmp_path / "page.html", pattern="script").path
    html = page.read_text(encoding="utf-8")
    assert html.count("</script>") == 2  # the data block's and the script's own
    assert "<img" not in html
    data = _data(page)
    assert list(data["views"]) == [HOSTILE]
    browser.open(page.as_uri())
    assert browser.errors() == []
    assert browser.evaluate("typeof window.pwned") == "undefined"
    assert browser.evaluate("document.querySelectorAll('img, b, main script').length") == 0
    assert browser.evaluate("document.getElementById('kernel').value") == HOSTILE
    assert HOSTILE in browser.evaluate("document.getElementById('kernel-list').textContent")
    browser.click("#L3")
    assert HOSTILE_LINE.strip() in browser.evaluate("document.getElementById('L3').textContent")
    assert browser.evaluate("document.querySelectorAll('#sass tr.linked').length") > 0
    assert browser.evaluate("typeof window.pwned") == "undefined"
    # and markup that got in all the same would not run: only the page's own script may
    browser.evaluate(
        "const i = document.createElement('img'); i.setAttribute('onerror', 'window.pwned=4');"
        " i.src = 'x.png'; document.body.append(i); new Promise(r => setTimeout(r, 300))"
    )
    assert browser.evaluate("typeof window.pwned") == "undefined"


def test_a_workspace_shares_its_report_with_the_operators(
    browser: Chromium, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """WS: the newest report attached to the build, each kernel with its TVM operators."""
    ws = tmp_path / "cnn3.kscope"
    shutil.copytree(COMPARE / "cnn3_b8.kscope", ws)
    Workspace.open(ws).attach_profile(COMPARE / "cnn3_b8_run1.ncu-rep")
    page = tmp_path / "page.html"
    rc, _, err = run_cli(["share", ws, "--top", "3", "-o", page], capsys)
    assert rc == 0, err
    data = _data(page)
    assert data["source"] == "profiles/cnn3_b8_run1.ncu-rep"
    rows = {k["name"]: k for k in data["kernels"]}
    assert rows["max_pool2d_kernel"]["ops"] == ["relax.nn.max_pool2d"]
    assert rows["fused_conv2d1_add1_relu1_kernel"]["time"] == "89.86"
    assert [k["name"] for k in data["kernels"] if k["shown"]] == list(data["views"])
    assert len(data["views"]) == 3
    browser.open(page.as_uri())
    cells = browser.evaluate(
        "[...document.querySelectorAll('#kernel-list tbody tr')].map(r => r.cells[12].textContent)"
    )
    assert "relax.nn.conv2d, relax.add, relax.nn.relu" in cells
    assert browser.errors() == []


def test_json_block_cannot_be_closed_by_data() -> None:
    text = json_for_script({"k": "</script><!-- & \u2028\u2029 >"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"k": "</script><!-- & \u2028\u2029 >"}


def test_no_paths_of_this_machine_unless_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workspace's folder (under this machine's temporary folder) and the environment
    stay off the page; files are named relative to the workspace; --keep-paths keeps them."""
    monkeypatch.setenv("KS_SHARE_SECRET", "do-not-share-7f3a")
    ws = tmp_path / "private-folder" / "cnn3.kscope"
    shutil.copytree(COMPARE / "cnn3_b8.kscope", ws)
    page = share_page(open_document(ws), tmp_path / "page.html").path
    html = page.read_text(encoding="utf-8")
    assert str(tmp_path) not in html and "private-folder" not in html
    assert os.path.expanduser("~") + "/" not in html
    assert "do-not-share-7f3a" not in html
    names = {f["name"] for v in _data(page)["views"].values() for f in v["files"]}
    assert "src/kernels/transpose_kernel.cu" in names
    kept = share_page(open_document(ws), tmp_path / "kept.html", keep_paths=True).path
    assert _data(page)["source"] == "cnn3.kscope"
    assert _data(kept)["source"] == str(ws)


def test_baseline_gives_the_diff_per_kernel_and_per_line(
    browser: Chromium, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Batch 2 against batch 8: the times and statuses ``kernelscope diff`` prints."""
    page = tmp_path / "diff.html"
    new, base = COMPARE / "cnn3_b8_run1.ncu-rep", COMPARE / "cnn3_b2.ncu-rep"
    rc, _, err = run_cli(
        ["share", new, "--baseline", base, "--kernels", "conv2d1", "-o", page], capsys
    )
    assert rc == 0, err
    rc, diff_json, _ = run_cli(["diff", base, new, "--json"], capsys)
    diff = json.loads(diff_json)
    compare = _data(page)["compare"]
    row = next(k for k in compare["kernels"] if k["new"] == "fused_conv2d1_add1_relu1_kernel")
    theirs = next(
        k for k in diff["kernels"] if k["match"]["new"] == "fused_conv2d1_add1_relu1_kernel"
    )
    assert row["status"] == theirs["status"] == "slower"
    assert row["delta"] == f"+{theirs['delta_ns'] / 1e3:.2f}"
    browser.open(page.as_uri())
    assert browser.errors() == []
    status = browser.evaluate(
        "[...document.querySelectorAll('#compare-body tbody tr')].map(r => r.cells[7].textContent)"
    )
    assert status.count("slower") >= 2  # this kernel and the total
    deltas = browser.evaluate("document.querySelectorAll('#line-deltas tbody tr').length")
    assert deltas == len(compare["lines"]["fused_conv2d1_add1_relu1_kernel"]) > 10


def test_roofline_is_inline_svg(tmp_path: Path) -> None:
    """The mlp report has the roofline sections (``--set full``): its kernels on the SVG."""
    page = share_page(open_document(data_path("ncu/mlp/mlp.ncu-rep")), tmp_path / "p.html").path
    html = page.read_text(encoding="utf-8")
    svg = html[html.index('<section id="roofline"') :]
    assert "<svg" in svg and "<circle" in svg and "DRAM" in svg


def test_bad_choices_are_errors_that_say_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a.html"
    rc, _, err = run_cli(["share", H200_REPORT, "--kernels", "(", "-o", out], capsys)
    assert rc == 1 and "not a regular expression" in err
    rc, _, err = run_cli(["share", H200_REPORT, "--kernels", "nothing", "-o", out], capsys)
    assert rc == 1 and "no kernel matches 'nothing'" in err and "hint: kernels:" in err
    rc, _, err = run_cli(["share", H200_REPORT, "--top", "0", "-o", out], capsys)
    assert rc == 1 and "--top 0" in err
    rc, _, err = run_cli(["share", H200_REPORT, "-o", tmp_path / "no" / "a.html"], capsys)
    assert rc == 1 and "does not exist" in err
    assert not list(tmp_path.iterdir())
    with pytest.raises(SystemExit):
        run_cli(["share", H200_REPORT, "--top", "2", "--kernels", "x", "-o", "a.html"], capsys)
    page = tmp_path / "page.html"
    page.write_text("an older page")
    with pytest.raises(KernelscopeError):
        share_page(open_document(H200_REPORT), page, pattern="nothing")
    assert page.read_text() == "an older page"  # nothing already saved is damaged


def test_paths_in_text_are_replaced_whole(tmp_path: Path) -> None:
    """A note naming a file of this machine shows the page's name for it; a longer name that
    only starts with a known path (/rootfs beside /root) is left alone."""
    from kernelscope.core.share.names import PathNames

    ws = tmp_path / "ws"
    other = tmp_path / "elsewhere"
    names = PathNames(False, [ws])
    assert names.name(f"{ws}/src/kernels/k.cu") == "src/kernels/k.cu"
    assert names.name(f"{other}/k2.cu") == "k2.cu"
    assert names.name("src/kernels/k3.cu") == "src/kernels/k3.cu"  # relative: as it is
    text = f"{other}/k2.cu changed. {other}/k2.cu.orig, {ws}, {ws}x"
    assert names.scrub({"note": [text]}) == {
        "note": [f"k2.cu changed. {other}/k2.cu.orig, ws, {ws}x"]
    }
