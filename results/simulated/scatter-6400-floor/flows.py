#!/usr/bin/python3
"""A flow-level model of the probe's scatter trees on equal node ranges (README.md, "Flows").

SimGrid's network model as SMPI 3.32 runs it (src/kernel/resource/models/network_cm02.cpp): a
message pays the route's latency times smpi/lat-factor(size), during which it takes no bandwidth;
then it shares each link of its route max-min with the other messages on it (equal weights among
messages of one route length), and moves at its share times smpi/bw-factor(size) (the action's
rate factor: a message of 9.4-15 KB moves at 0.59 of the link it holds, one of 5.8-9.4 KB at
1.09). A sender's messages leave one send overhead (smpi/os, 0.3 us) apart; a receiver takes
0.3 us (smpi/or) before it sends on. Inside a node, the loopback link is not shared.

usage: flows.py check PROBES.TSV  (model against the probe's evenK_J lines)
       flows.py table P B         (the best number of parts of a range of n nodes: evenK_0's TABLE)
       flows.py best P B          (the best equal-parts tree: its root's parts and modelled time)
Run from the repository root (the latency factors come from scripts/simulate --print-config).
"""
import csv
import functools
import subprocess
import sys

# SimGrid 3.32's default smpi/bw-factor (the simulations leave it at its default).
BW_FACTOR = [(0, .812084), (257, .338112), (732, .341987), (1426, .608902), (3484, .77493),
             (5776, 1.08739), (9376, .58729), (15424, .697866), (65472, .940694)]
OVERHEAD = 0.3e-6
PER_NODE = 16
# p: (network latency, bandwidth; loopback latency, bandwidth; nodes before and after the root's)
PLATFORMS = {6400: (1.3e-6, 3.2e9, 0.3e-6, 6e9, 200, 199),  # paper-qdr80.xml, root 3200
             560: (1.3e-6, 3.2e9, 0.4e-6, 4e9, 17, 17)}     # paper-560.xml, root 280


@functools.lru_cache(None)
def latency_factors():
    """Read once per process: every Model of a `check` shares them."""
    for line in subprocess.run(["scripts/simulate", "--print-config"], check=True,
                               capture_output=True, text=True).stdout.split():
        if line.startswith("--cfg=smpi/lat-factor:"):
            pairs = line.split(":", 1)[1].split(";")
            return sorted((int(t), float(f)) for t, f in (x.split(":") for x in pairs))
    raise SystemExit("flows.py: scripts/simulate --print-config sets no smpi/lat-factor")


def factor(table, size):
    value = table[0][1]
    for threshold, f in table:
        if size >= threshold:
            value = f
    return value


class Model:
    def __init__(self, p, block_bytes):
        lat, bw, loop_lat, loop_bw, self.left, self.right = PLATFORMS[p]
        self.lat_factor = latency_factors()
        self.net, self.loop = (lat, bw, True), (loop_lat, loop_bw, False)
        self.rank_bytes, self.node_bytes = block_bytes, block_bytes * PER_NODE
        self.best = [None]  # best_parts, by node count

    def arrivals(self, sizes, link):
        """When each of a sender's messages (sent in this order from time 0) arrives."""
        latency, bandwidth, shared = link
        begin = [(i + 1) * OVERHEAD + latency * factor(self.lat_factor, s)
                 for i, s in enumerate(sizes)]
        left, done, active, t = [float(s) for s in sizes], [0.0] * len(sizes), set(), 0.0
        waiting = sorted(range(len(sizes)), key=lambda i: begin[i])
        while waiting or active:
            while waiting and begin[waiting[0]] <= t:
                active.add(waiting.pop(0))
            if not active:
                t = begin[waiting[0]]
                continue
            share = bandwidth / len(active) if shared else bandwidth
            rate = {i: share * factor(BW_FACTOR, sizes[i]) for i in active}
            step = min(min(left[i] / rate[i] for i in active),
                       begin[waiting[0]] - t if waiting else float("inf"))
            for i in list(active):
                left[i] -= rate[i] * step
                if left[i] <= 1e-9:
                    done[i] = t + step
                    active.discard(i)
            t += step
        return done

    def serve(self, parts, unit, link, below):
        """A sender's time: its parts (units each), largest first, each then served by below."""
        parts = sorted(parts, reverse=True)
        times = self.arrivals([n * unit for n in parts], link)
        return max(t + OVERHEAD + below(n) for t, n in zip(times, parts))

    def node_sender(self, parts, below):
        """A node's first rank: its node parts over the network, then its own node."""
        return max(self.serve(parts, self.node_bytes, self.net, below),
                   len(parts) * OVERHEAD + self.node())

    @functools.lru_cache(None)
    def node(self, ranks=PER_NODE):
        """A node's ranks from its first, the best equal parts at every sender."""
        if ranks == 1:
            return 0.0
        return min(self.serve(split(ranks - 1, k), self.rank_bytes, self.loop, self.node)
                   for k in range(1, ranks))

    def nodes(self, n, parts_of):
        """A range of n nodes from its first node's first rank, parts_of(n) parts a sender."""
        if n == 1:
            return self.node()
        return self.node_sender(split(n - 1, parts_of(n)), lambda m: self.nodes(m, parts_of))

    def root(self, k, parts_of):
        """The root's k parts over the nodes on either side of its own, in proportion."""
        total = self.left + self.right
        k_left = max(1, round(k * self.left / total))
        parts = split(self.left, k_left) + split(self.right, max(1, k - k_left))
        return self.node_sender(parts, lambda m: self.nodes(m, parts_of))

    def best_parts(self, n):
        """(time, parts) of the best equal split of a range of n nodes (filled from 1 up, as
        every range's parts are smaller)."""
        while len(self.best) <= n:
            m = len(self.best)
            self.best.append((self.node(), 0) if m == 1 else min(
                (self.nodes_with(m, k), k) for k in range(1, min(64, m - 1) + 1)))
        return self.best[n]

    def nodes_with(self, n, k):
        return self.node_sender(split(n - 1, k), lambda m: self.best[m][0])


def split(n, k):
    k = max(1, min(k, n))
    return [n * (i + 1) // k - n * i // k for i in range(k)]


def main(argv):
    if len(argv) == 2 and argv[0] == "check":
        with open(argv[1]) as f:
            rows = [r for r in csv.DictReader(f, delimiter="\t")
                    if r["mode"].startswith("even") and r["rep"] == "1"
                    and not r["mode"].endswith("b") and not r["mode"].endswith("_0")]
        print("p\tmode\tb\tmeasured_us\tmodel_us\tdifference_us")
        for r in rows:
            top, below = (int(x) for x in r["mode"][4:].split("_"))
            model = Model(int(r["p"]), 4 * int(r["b"])).root(top, lambda n: below) * 1e6
            print(f"{r['p']}\t{r['mode']}\t{r['b']}\t{float(r['us']):.2f}\t{model:.2f}\t"
                  f"{float(r['us']) - model:.2f}")
    elif len(argv) == 3 and argv[0] in ("table", "best"):
        if argv[1] not in ("560", "6400") or not argv[2].isdigit() or int(argv[2]) < 1:
            sys.exit(f"flows.py: P must be 560 or 6400 and B a whole number >= 1, not {argv[1]!r}"
                     f" and {argv[2]!r}")
        model = Model(int(argv[1]), 4 * int(argv[2]))
        if argv[0] == "table":
            for n in range(1, model.left + model.right + 2):
                print(n, model.best_parts(n)[1])
        else:
            time, k = min((model.root(k, lambda n: model.best_parts(n)[1]), k)
                          for k in range(2, 65))
            print(f"root parts {k}, modelled {time * 1e6:.2f} us")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
