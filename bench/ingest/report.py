#!/usr/bin/env python3
"""Reads bench/ingest/run.sh's results.csv; prints, per format and connection count, each
server's rows/s and rows per server CPU-second with Granary's ratio to ClickHouse, and draws
the per-CPU-second figures as grouped bars in an SVG.
Usage: report.py results.csv out.svg"""
import csv
import sys
from html import escape


def main(results_path, svg_path):
    rows = list(csv.DictReader(open(results_path)))
    points = {}
    for row in rows:
        points[(row["format"], int(row["connections"]), row["server"])] = row
    keys = sorted({(f, c) for f, c, _ in points}, key=lambda k: (k[0], k[1]))
    print(f"{'format':<14} {'conn':>4} {'granary rows/s':>15} {'CH rows/s':>12} "
          f"{'granary rows/CPU-s':>19} {'CH rows/CPU-s':>14} {'ratio (per CPU-s)':>18}")
    bars = []
    for fmt, conn in keys:
        g = points.get((fmt, conn, "granary"))
        c = points.get((fmt, conn, "clickhouse"))
        g_cpu = float(g["rows_per_server_cpu_s"]) if g else 0
        c_cpu = float(c["rows_per_server_cpu_s"]) if c else 0
        ratio = g_cpu / c_cpu if c_cpu else float("nan")
        print(f"{fmt:<14} {conn:>4} {float(g['rows_per_s']) if g else 0:>15.0f} "
              f"{float(c['rows_per_s']) if c else 0:>12.0f} {g_cpu:>19.0f} {c_cpu:>14.0f} "
              f"{ratio:>17.2f}x")
        bars.append((f"{fmt} x{conn}", g_cpu, c_cpu, ratio))
    write_svg(bars, svg_path)


def write_svg(bars, path):
    width, height, left, bottom, top = 760, 360, 70, 80, 40
    plot_w, plot_h = width - left - 20, height - bottom - top
    peak = max([max(g, c) for _, g, c, _ in bars] + [1])
    group_w = plot_w / max(len(bars), 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">'
           'hits ingest over HTTP: rows per server CPU-second (higher is better)</text>']
    for i in range(5):
        value = peak * i / 4
        y = top + plot_h - plot_h * i / 4
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y}" y2="{y}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 5}" y="{y + 4}" text-anchor="end">{value / 1000:.0f}K</text>')
    for i, (label, g, c, ratio) in enumerate(bars):
        x = left + i * group_w + group_w * 0.15
        bar_w = group_w * 0.35
        for j, (value, color) in enumerate(((g, "#2b7bb9"), (c, "#f0a030"))):
            h = plot_h * value / peak
            out.append(f'<rect x="{x + j * bar_w}" y="{top + plot_h - h}" width="{bar_w - 2}" '
                       f'height="{h}" fill="{color}"/>')
        out.append(f'<text x="{x + bar_w}" y="{top + plot_h + 14}" text-anchor="middle">'
                   f'{escape(label)}</text>')
        out.append(f'<text x="{x + bar_w}" y="{top + plot_h + 28}" text-anchor="middle">'
                   f'{ratio:.2f}x</text>')
    out.append(f'<rect x="{left}" y="{height - 30}" width="12" height="12" fill="#2b7bb9"/>'
               f'<text x="{left + 16}" y="{height - 20}">Granary</text>'
               f'<rect x="{left + 90}" y="{height - 30}" width="12" height="12" fill="#f0a030"/>'
               f'<text x="{left + 106}" y="{height - 20}">ClickHouse 18.16</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
