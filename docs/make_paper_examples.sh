#!/usr/bin/env bash
# Regenerate the paper examples in docs/examples/: the A4 PDF (portrait) of 丙午年 冬月 甲辰旬 庚戌日 and its
# pages, the same state on A4 landscape, Zhuang's example as SVG, a date snapshot as PNG, and the year
# booklet of 丙午 (cover, contents and the first month's two pages) rendered to PNG at 80 dpi.
# Needs poppler-utils (pdftoppm). Run from the repository root:  bash docs/make_paper_examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=offscreen
sp=.venv/bin/shensha-plates
out=docs/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$sp snapshot --year 丙午 --month 11 --xun 甲辰 --day 庚戌 -o $out/bingwu-dongyue.pdf
pdftoppm -png -r 80 $out/bingwu-dongyue.pdf "$tmp/p"
mv "$tmp/p-1.png" $out/bingwu-dongyue-pdf-page-1.png
mv "$tmp/p-2.png" $out/bingwu-dongyue-pdf-page-2.png

$sp snapshot --year 丙午 --month 11 --xun 甲辰 --day 庚戌 --landscape --no-table -o "$tmp/l.pdf"
pdftoppm -png -r 80 "$tmp/l.pdf" "$tmp/l"
mv "$tmp/l-1.png" $out/bingwu-dongyue-a4-landscape.png

$sp snapshot --year 甲子 --month 1 --xun 甲子 -o $out/zhuang-example.svg
.venv/bin/python - <<'PY'
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
app = QGuiApplication([])
from shensha_plates.gui.fonts import register_fonts
register_fonts()
r = QSvgRenderer("docs/examples/zhuang-example.svg")
size = r.defaultSize()
img = QImage(size, QImage.Format.Format_RGB32)
img.fill(0xFFFFFFFF)
p = QPainter(img)
r.render(p)
p.end()
img.save("docs/examples/zhuang-example-svg-rendered.png")
PY
$sp snapshot --date 2026-12-02T18:00 --size 1800 -o $out/2026-12-02-1800.png

$sp booklet --year 丙午 -o "$tmp/b.pdf" --quiet
pdftoppm -png -r 80 -f 1 -l 4 "$tmp/b.pdf" "$tmp/b"
mv "$tmp/b-01.png" $out/booklet-bingwu-cover.png
mv "$tmp/b-02.png" $out/booklet-bingwu-contents.png
mv "$tmp/b-03.png" $out/booklet-bingwu-zhengyue-plates.png
mv "$tmp/b-04.png" $out/booklet-bingwu-zhengyue-tables.png
ls -l $out
