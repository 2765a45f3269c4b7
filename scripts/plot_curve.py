"""Plot an exact α-curve written by `renyi-search curve … --csv FILE` with pandas.

    python3 scripts/plot_curve.py results/data/curves/mm1296-lex.csv
"""
import sys

import matplotlib.pyplot as plt
import pandas as pd

curve = pd.read_csv(sys.argv[1], comment="#")
intervals = curve[curve.kind == "interval"]
points = curve[(curve.kind == "point") & (curve.lo != float("inf"))]
x_max = 6.0
for _, row in intervals.iterrows():
    plt.hlines(row["mean"], row["lo"], min(row["hi"], x_max), colors="C0")
plt.plot(points["lo"], points["mean"], ".", color="C0", markersize=3)
plt.xlim(0, x_max)
plt.xlabel("α")
plt.ylabel("mean number of queries")
plt.show()
