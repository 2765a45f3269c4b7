#!/usr/bin/env python3
"""Figures shaped like thesis Figs. 4.1, 4.3/4.4, 4.16 and 4.17 from the CSVs of
`renyi-search reproduce table-4.15` (results/data/free-search-large.csv, wurzel-curves.csv,
wurzel-alpha-1000.csv). Writes PNGs into results/figures/. Needs matplotlib."""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

R = sys.argv[1] if len(sys.argv) > 1 else "results"


def rows(name):
    with open(f"{R}/data/{name}") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


free = rows("free-search-large.csv")
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
for a in (2, 3, 4, 10, 16):
    pts = [r for r in free if int(r["a"]) == a and int(r["m"]) > 1]
    m = [int(r["m"]) for r in pts]
    a1.plot(m, [int(r["perfect_total"]) / int(r["m"]) / math.log(int(r["m"]), a) for r in pts], lw=0.6, label=f"a={a}")
    a2.plot(m, [int(r["balanced_total"]) / int(r["perfect_total"]) for r in pts], lw=0.6, label=f"a={a}")
a1.set(xscale="log", xlabel="m", ylabel="E*(m) / log_a m", title="Fig. 4.1: perfect free search")
a2.set(xscale="log", xlabel="m", ylabel="H_α / perfect", title="Figs. 4.3/4.4: H_α (0<α<∞) vs perfect")
a1.legend(); a2.legend(); fig.tight_layout(); fig.savefig(f"{R}/figures/fig-free-search.png", dpi=110)

w = rows("wurzel-curves.csv")
fig, ax = plt.subplots(figsize=(8, 4))
n = [int(r["n"]) for r in w[1:]]
for col in [c for c in w[0] if c.startswith("H_")]:
    ax.plot(n, [float(r[col]) / float(r["perfect"]) for r in w[1:]], lw=0.6, label=col)
ax.set(xscale="log", xlabel="|C|", ylabel="H_α / perfect", title="Fig. 4.16: Wurzel model")
ax.legend(); fig.tight_layout(); fig.savefig(f"{R}/figures/fig-wurzel-curves.png", dpi=110)

s = rows("wurzel-alpha-1000.csv")
fig, ax = plt.subplots(figsize=(8, 4))
ax.step([float(r["alpha"]) for r in s], [float(r["ratio_to_perfect"]) for r in s], where="mid")
ax.set(xlabel="α", ylabel="H_α / perfect at |C| = 1000", title="Fig. 4.17: Wurzel model, |C| = 1000")
fig.tight_layout(); fig.savefig(f"{R}/figures/fig-wurzel-alpha-1000.png", dpi=110)
print("wrote figures into", R)
