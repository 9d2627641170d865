#!/usr/bin/env bash
# Checks a report folder's report.html as a reader would get it.
#
#   tests/report/render_html.sh [--no-render] [--keep] REPORT_DIR
#
# Always (no browser needed): the HTML is self-contained — no external URL in src/href/url(),
# no <script>, no <img> that is not inline data, every plot listed in report.json with a file
# is inlined as an <svg> (count matches), every <svg> is closed, and every inlined SVG's ids
# are unique across the page.
# Then, unless --no-render: renders the page with Debian's headless chromium to
# REPORT_DIR/report.png (1280 px wide, the whole page) and checks the screenshot is a non-trivial PNG, and
# checks (with a probe script run on a copy of the page) that no table, figure or code block is
# wider than the page column and that every plot is rendered with its data area (gnuplot's
# plot area, recorded on the SVG as data-plot-area-fraction) at least half of the figure; the
# static checks also require at most 6 series per plot.
# Exit codes: 0 ok, 1 a check failed, 2 not a report to check (no report.html or report.json,
# report.json not JSON, or listing no properties: a page with nothing to show passed every check
# vacuously) with one "render_html: error:" line on stderr, 77 chromium not installed (ctest
# shows "skipped").
# Look at REPORT_DIR/report.png afterwards to judge the layout yourself.
set -euo pipefail

render=1
keep=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-render) render=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
refuse() { echo "render_html: error: $*" >&2; exit 2; }
[[ $# -eq 1 ]] || refuse "usage: render_html.sh [--no-render] [--keep] REPORT_DIR"
dir="$1"
html="$dir/report.html"
json="$dir/report.json"
[[ -f "$html" ]] || refuse "no $html"
[[ -f "$json" ]] || refuse "no $json"
python3 - "$json" <<'PY' || exit 2
import json, sys
def refuse(why):
    print(f"render_html: error: {sys.argv[1]}: {why}", file=sys.stderr)
    sys.exit(2)
try:
    rep = json.load(open(sys.argv[1], encoding="utf-8"))
except (OSError, ValueError) as e:
    refuse(f"not JSON ({str(e).splitlines()[0]})")
if not isinstance(rep, dict) or not isinstance(rep.get("properties"), list) or \
        not isinstance(rep.get("plots"), list):
    refuse('not a report ("properties" and "plots" must be lists)')
if not rep["properties"]:
    refuse("lists no properties: nothing to check")
PY

fail() { echo "render_html: FAIL: $*"; exit 1; }

# --- static checks -----------------------------------------------------------------------------
python3 - "$html" "$json" <<'PY' || exit 1
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
rep = json.load(open(sys.argv[2], encoding="utf-8"))
problems = []
# External references: src=, href= (except in-page '#...'), CSS url(), @import. XML namespace
# declarations (xmlns="http://www.w3.org/...") are names, not fetches, and are allowed.
for m in re.finditer(r'\b(src|href)\s*=\s*["\']([^"\']*)["\']', html):
    attr, val = m.group(1), m.group(2)
    if val.startswith("#") or val.startswith("data:"):
        continue
    problems.append(f"external {attr}: {val[:80]}")
for m in re.finditer(r'url\(\s*["\']?([^)"\']*)', html):
    if not m.group(1).startswith("#") and not m.group(1).startswith("data:"):
        problems.append(f"external url(): {m.group(1)[:80]}")
if "@import" in html:
    problems.append("CSS @import")
if re.search(r"<script\b", html, re.I):
    problems.append("<script> present (the report must work without scripts)")
for m in re.finditer(r"<img\b[^>]*>", html, re.I):
    if not re.search(r'src\s*=\s*["\']data:image/', m.group(0)):
        problems.append(f"<img> without inline data: {m.group(0)[:80]}")
opened = len(re.findall(r"<svg\b", html))
closed = len(re.findall(r"</svg>", html))
if opened != closed:
    problems.append(f"{opened} <svg> opened, {closed} closed")
drawn = [p for p in rep["plots"] if p.get("file")]
if opened < len(drawn):
    problems.append(f"report.json lists {len(drawn)} drawn plots, the HTML inlines {opened} SVGs")
for p in drawn:
    fid = "plot-" + re.sub(r"[^A-Za-z0-9-]", "_", p["id"])
    block = re.search(r'<figure id="' + re.escape(fid) + r'">(.*?)</figure>', html, re.S)
    if not block or "<svg" not in block.group(1):
        problems.append(f"plot {p['id']} is not inlined")
ids = re.findall(r'\bid="([^"]+)"', html)
dups = sorted({i for i in ids if ids.count(i) > 1})
if dups:
    problems.append(f"duplicate ids: {dups[:5]}")
# Readable figures: at most 6 series per panel, and gnuplot's data area (recorded on
# each inline SVG as data-plot-area-fraction) at least half of the figure.
for p in rep["plots"]:
    if len(p["lines"]) > 6:
        problems.append(f"plot {p['id']} has {len(p['lines'])} series (at most 6 per panel)")
for m in re.finditer(r"<svg\b[^>]*>", html):
    tag = m.group(0)  # every inline SVG of the report is a gnuplot figure
    f = re.search(r'data-plot-area-fraction="([^"]+)"', tag)
    if not f:
        problems.append(f"an inline plot has no data-plot-area-fraction: {tag[:80]}")
    elif float(f.group(1)) < 0.5:
        problems.append(f"a plot's data area is {float(f.group(1)):.2f} of its figure (< 0.5): {tag[:120]}")
# Every property of report.json appears in the page.
for prop in rep["properties"]:
    if f'id="prop-{prop["name"]}"' not in html:
        problems.append(f"property {prop['name']} has no row")
if problems:
    print("render_html: FAIL:\n  " + "\n  ".join(problems))
    sys.exit(1)
print(f"render_html: static checks ok ({len(rep['properties'])} properties, {opened} inline SVGs, "
      f"no external URL, no script)")
PY

[[ $render -eq 1 ]] || exit 0

# --- render ------------------------------------------------------------------------------------
browser=""
for b in chromium chromium-browser; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [[ -z "$browser" ]]; then
  echo "render_html: SKIP: chromium is not installed (apt-get install -y --no-install-recommends chromium)"
  exit 77
fi
profile="$(mktemp -d)"
trap '[[ $keep -eq 1 ]] || rm -rf "$profile"' EXIT
png="$dir/report.png"
abs_html="$(cd "$(dirname "$html")" && pwd)/report.html"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --hide-scrollbars --user-data-dir="$profile")
# Layout check: a copy of the page with a probe script (the report itself has none) that records
# every table, figure or pre block sticking out of the page column; chromium's --dump-dom runs it.
probe="$(dirname "$abs_html")/.report_layout_probe.html"
trap '[[ $keep -eq 1 ]] || rm -rf "$profile" "$probe"' EXIT
python3 - "$abs_html" "$probe" <<'PY'
import sys
probe = """<script>(function(){var m=document.querySelector("main")||document.body;
var right=m.getBoundingClientRect().right+1;var bad=[];
document.querySelectorAll("table,figure,pre,svg").forEach(function(e){
if(e.getBoundingClientRect().right>right){bad.push(e.tagName+"#"+(e.id||e.className||""))}});
document.querySelectorAll("figure svg").forEach(function(e){var r=e.getBoundingClientRect();
var f=parseFloat(e.getAttribute("data-plot-area-fraction"));var fig=e.closest("figure");
if(!(r.width>0&&r.height>0)){bad.push("plot-not-rendered:"+(fig?fig.id:"?"))}
else if(!(f*r.width*r.height>=0.5*r.width*r.height)){bad.push("data-area-under-half:"+(fig?fig.id:"?")+"="+f)}});
if(document.documentElement.scrollWidth>window.innerWidth+1){bad.push("page wider than window")}
document.body.setAttribute("data-overflow",bad.join(" ")||"none");
document.body.setAttribute("data-height",String(document.documentElement.scrollHeight));})();</script></body>"""
html = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(html.replace("</body>", probe))
PY
timeout 90 "$browser" "${flags[@]}" --window-size=1280,800 --dump-dom "file://$probe" \
  >"$profile/dom.html" 2>"$profile/dom.log" || true
[[ -s "$profile/dom.html" ]] || { cat "$profile/dom.log"; fail "chromium could not load the page"; }
overflow="$(grep -o 'data-overflow="[^"]*"' "$profile/dom.html" | head -1 | sed 's/data-overflow="//; s/"$//')"
[[ -n "$overflow" ]] || fail "layout probe did not run"
[[ "$overflow" == "none" ]] || fail "layout at 1280 px: $overflow (elements wider than the page column, or plots whose data area is under half of the rendered figure)"
echo "render_html: layout ok at 1280 px (no table, figure or code block wider than the page; every plot rendered, its data area at least half of it)"
# Screenshot of the whole page (its height measured by the probe; capped at 16000 px).
height="$(grep -o 'data-height="[0-9]*"' "$profile/dom.html" | head -1 | tr -dc 0-9)"
height=$(( ${height:-4000} > 16000 ? 16000 : ${height:-4000} ))
rm -f "$png"
timeout 90 "$browser" "${flags[@]}" --screenshot="$png" --window-size=1280,"$height" \
  "file://$abs_html" >"$profile/screenshot.log" 2>&1 || true
[[ -s "$png" ]] || { cat "$profile/screenshot.log"; fail "chromium wrote no screenshot"; }
python3 - "$png" <<'PY' || exit 1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    print("render_html: FAIL: screenshot is not a PNG"); sys.exit(1)
w, h = struct.unpack(">II", data[16:24])
# Decode enough to see that the page is not blank: count distinct colours in the IDAT stream.
idat = b"".join(data[i + 8:i + 8 + struct.unpack(">I", data[i:i + 4])[0]]
                for i in range(8, len(data)) if data[i + 4:i + 8] == b"IDAT")
raw = zlib.decompress(idat)
distinct = len(set(raw[::97]))
if distinct < 8:
    print(f"render_html: FAIL: screenshot looks blank ({distinct} distinct byte values)"); sys.exit(1)
print(f"render_html: rendered {w}x{h} PNG -> {sys.argv[1]}")
PY
echo "render_html: ok (look at $png)"
