#!/usr/bin/env python3
"""Plot H_alpha-LEX totals against alpha (thesis Fig. 4.6) from the CSVs that
`renyi-search reproduce table-4.18` (or `sweep mastermind`) writes.

usage: python3 scripts/plot_alpha_scan.py results/data/alpha-scan-mm1296.csv [more.csv ...] [-o out.png]
needs: matplotlib (pip install matplotlib)
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("-o", "--out", default="results/figures/alpha-scan.png")
    args = ap.parse_args()
    fig, axes = plt.subplots(len(args.csv), 1, figsize=(7, 3 * len(args.csv)), squeeze=False)
    for ax, path in zip(axes[:, 0], args.csv):
        with open(path) as f:
            rows = list(csv.DictReader(f))
        alpha = [float(r["alpha_value"]) for r in rows]
        mean = [float(r["mean"]) for r in rows]
        ax.step(alpha, mean, where="mid")
        ax.set_xlabel("α")
        ax.set_ylabel("mean number of queries")
        ax.set_title(path)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
