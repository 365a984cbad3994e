#!/usr/bin/env python3
"""Look at report.html the way a person does (issue 17): headless Chromium at 1400 px and 390 px.

For each width: the page's DOM is checked by a small script appended to a temporary copy of the
page (horizontal overflow of the document, images that did not decode, images with a
non-embedded ``src``, the findings section being first), the result read back with
``--dump-dom``; then the first screen (W × 900) and the full page (height capped at
``--max-height`` px, Chromium's texture limit) are saved as PNGs.

    python tools/check_report.py reports/latest/report.html --out /tmp/shots

Exit 0 when every check passes at both widths, 1 when one fails, 2 when Chromium or the file is
missing (nothing checked).  The browser runs with no network access needed (the page is one file).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTHS = (1400, 390)
FIRST_SCREEN = 900
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1")

PROBE = """<script>(function(){
function run(){

var d=document.documentElement,b=document.body,W=window.innerWidth,over=[];

if(d.scrollWidth>W+1)over.push("document "+d.scrollWidth+">"+W);

var all=b.querySelectorAll("*");
for(var i=0;
i<all.length;
i++){
var e=all[i],r=e.getBoundingClientRect();

if(r.right>W+1&&r.width>0&&!e.closest(".scroll")&&!e.closest("nav")){
over.push(e.tagName+"#"+(e.id||"")+"."+e.className+" right="+Math.round(r.right));
if(over.length>20)break;
}
var cs=getComputedStyle(e);
if(e.clientWidth>0&&e.scrollWidth>e.clientWidth+1&&cs.overflowX==="visible"&&!e.closest(".scroll")&&!e.closest("nav")&&!e.closest("table")){
over.push(e.tagName+"#"+(e.id||"")+"."+e.className+" text overflows: "+e.scrollWidth+">"+e.clientWidth);
if(over.length>20)break;
}}
var imgs=document.images,broken=[],external=[];
for(var j=0;
j<imgs.length;
j++){
var im=imgs[j];

if(!im.complete||im.naturalWidth===0)broken.push(im.alt);
if(im.getAttribute("src").indexOf("data:")!==0)external.push(im.getAttribute("src"));
}
var secs=document.querySelectorAll("main > section");

var out={
width:W,height:d.scrollHeight,overflow:over,broken:broken,external:external,images:imgs.length,
first_section:secs.length?secs[0].id:null};

var host=(window.parent&&window.parent!==window)?window.parent.document:document;

var p=host.createElement("pre");
p.id="privlab-check";
p.textContent=JSON.stringify(out);
host.body.appendChild(p);
}
if(document.readyState==="complete")run();
else window.addEventListener("load",run);
})();
</script>"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


MIN_WINDOW = 500
"""Headless Chromium does not make windows narrower than this; a narrower width is emulated by
an ``<iframe srcdoc>`` of that width (same origin, so the probe reports to the outer page)."""


def _page(html_text: str, width: int, height: int, path: Path) -> str:
    """``path`` holding ``html_text`` as seen in a ``width``-wide viewport; returns its URI."""
    if width >= MIN_WINDOW:
        path.write_text(html_text, encoding="utf-8")
    else:
        import html as _html

        path.write_text("<!doctype html><html><body style='margin:0'><iframe style='border:0;"
                        f"width:{width}px;height:{height}px' srcdoc=\"{_html.escape(html_text)}\">"
                        "</iframe></body></html>", encoding="utf-8")
    return path.as_uri()


def _run(browser: str, args: list[str], profile: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=180, check=False)


def check(html: Path, out: Path, max_height: int = 16000) -> dict[str, object]:
    browser = chromium()
    if browser is None:
        raise FileNotFoundError("chromium not found (apt-get install chromium)")
    out.mkdir(parents=True, exist_ok=True)
    results: dict[str, object] = {}
    page = html.read_text(encoding="utf-8")
    probed = page.replace("</body>", PROBE + "</body>")
    with tempfile.TemporaryDirectory() as tmp:
        for w in WIDTHS:
            prof = Path(tmp) / f"profile-{w}"
            win = max(w, MIN_WINDOW)
            uri = _page(probed, w, FIRST_SCREEN, Path(tmp) / f"probe-{w}.html")
            dom = _run(browser, [f"--window-size={win},{FIRST_SCREEN}",
                                 "--virtual-time-budget=5000", "--dump-dom", uri], prof).stdout
            m = re.search(r'<pre id="privlab-check">(.*?)</pre>', dom, re.S)
            if m is None:
                results[str(w)] = {"error": "probe did not run", "ok": False}
                continue
            res = json.loads(m.group(1).replace("&quot;", '"').replace("&gt;", ">")
                             .replace("&lt;", "<").replace("&amp;", "&"))
            first = out / f"report-{w}-first-screen.png"
            full = out / f"report-{w}-full.png"
            uri = _page(page, w, FIRST_SCREEN, Path(tmp) / f"first-{w}.html")
            _run(browser, [f"--window-size={win},{FIRST_SCREEN}", f"--screenshot={first}", uri],
                 prof)
            height = min(int(res["height"]), max_height)
            uri = _page(page, w, height, Path(tmp) / f"full-{w}.html")
            _run(browser, [f"--window-size={win},{height}", f"--screenshot={full}", uri], prof)
            res["screenshots"] = [str(first), str(full)]
            res["full_page_truncated"] = int(res["height"]) > max_height
            res["ok"] = (res["width"] == w and not res["overflow"] and not res["broken"]
                         and not res["external"] and res["first_section"] == "findings"
                         and first.is_file() and full.is_file())
            results[str(w)] = res
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("html", type=Path, nargs="?", default=Path("reports/latest/report.html"))
    ap.add_argument("--out", type=Path, default=Path("reports/latest/screenshots"))
    ap.add_argument("--max-height", type=int, default=16000)
    a = ap.parse_args(argv)
    if not a.html.is_file():
        print(f"error: html={str(a.html)!r} is not a file", file=sys.stderr)
        return 2
    try:
        res = check(a.html, a.out, a.max_height)
    except FileNotFoundError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(res, indent=2))
    return 0 if all(r.get("ok") for r in res.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
