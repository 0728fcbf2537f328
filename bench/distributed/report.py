#!/usr/bin/env python3
"""Reads two `granary mpi-query --json` reports (a baseline and a run over more ranks) of the
same queries, prints per query both times, the exchange's share of the ranks' time, the bytes
that crossed between ranks, and a model's prediction for more nodes; writes an SVG of the
times.

The model, per query, from the multi-rank run: the ranks' local work (scan, partial
aggregation, merge, top-N: the wall time outside collectives, summed over ranks) divides
evenly over P nodes, each as fast as one rank here, and each node sends what a rank here sent
on average (the states of its shard's groups less the share it keeps: an upper bound where
groups are few and every node holds every key, and roughly right where each node's groups
are its own) over a network of the given bandwidth:
    T(P) = W / P + (mean bytes sent per rank) / bandwidth.
"""
import argparse
import json
import math


def load(path):
    return {r["query"]: r for r in json.load(open(path)) if "seconds" in r}


def svg_bars(queries, base, multi, labels, path):
    width, bar_area = 900, 260
    step = width / max(len(queries), 1)
    top = max(max(base.values()), max(multi.values())) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 60}" height="{bar_area + 80}"'
           ' font-family="sans-serif" font-size="10">',
           f'<text x="30" y="14">query time, log scale: {labels[0]} (grey) and {labels[1]} (blue)</text>']
    floor = min(min(base.values()), min(multi.values()), 1e-3)
    scale = lambda s: bar_area * (math.log10(max(s, floor)) - math.log10(floor)) / (
        math.log10(top) - math.log10(floor) or 1)
    for i, q in enumerate(queries):
        x = 40 + i * step
        for j, (series, colour) in enumerate(((base, "#999"), (multi, "#36c"))):
            h = scale(series[q])
            out.append(f'<rect x="{x + j * step / 2.4:.1f}" y="{20 + bar_area - h:.1f}" '
                       f'width="{step / 2.6:.1f}" height="{h:.1f}" fill="{colour}"/>')
        out.append(f'<text x="{x:.1f}" y="{bar_area + 34}">{q}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("baseline")
    parser.add_argument("ranks")
    parser.add_argument("--bandwidth-gbps", type=float, default=10.0)
    parser.add_argument("--nodes", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--svg")
    args = parser.parse_args()
    base, multi = load(args.baseline), load(args.ranks)
    queries = sorted(set(base) & set(multi))
    bandwidth = args.bandwidth_gbps * 1e9 / 8
    some = multi[queries[0]]["exchange"]
    ranks = some["ranks"]
    labels = (f'{base[queries[0]]["exchange"]["ranks"]} rank x {base[queries[0]]["threads"]} threads',
              f'{ranks} ranks x {some["per_rank"] and multi[queries[0]]["threads"]} thread')
    header = (f'{"q":>3} {labels[0]:>18} {labels[1]:>18} {"ratio":>6} {"exch%":>6} '
              f'{"bytes sent":>12} {"imbal":>6}' + "".join(f' {"T(" + str(p) + ")":>9}' for p in args.nodes))
    print(header)
    ratios = []
    for q in queries:
        b, m = base[q]["seconds"], multi[q]["seconds"]
        per_rank = multi[q]["exchange"]["per_rank"]
        exchange = max(r["exchange_seconds"] for r in per_rank)
        sent = sum(r["bytes_sent"] for r in per_rank)
        work = sum(r["local_seconds"] for r in per_rank)
        predictions = [work / p + (sent / len(per_rank)) / bandwidth for p in args.nodes]
        ratios.append(m / b)
        print(f'{q:>3} {b:>18.3f} {m:>18.3f} {m / b:>6.2f} {100 * exchange / m:>5.1f}% '
              f'{sent:>12} {multi[q]["exchange"]["imbalance"]:>6.2f}' +
              "".join(f" {t:>9.4f}" for t in predictions))
    geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"geometric mean of {labels[1]} / {labels[0]}: {geomean:.3f} over {len(ratios)} queries;"
          f" model: {args.bandwidth_gbps:g} Gbit/s per node")
    if args.svg:
        svg_bars(queries, {q: base[q]["seconds"] for q in queries},
                 {q: multi[q]["seconds"] for q in queries}, labels, args.svg)
        print(f"wrote {args.svg}")


if __name__ == "__main__":
    main()
