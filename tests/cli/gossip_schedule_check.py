#!/usr/bin/env python3
"""Re-verifies a `wormcast gossip --json` schedule from its listed unicasts alone.

Usage: gossip_schedule_check.py RESULT.json [--exactly-once] [--steps N]

Independent of the C++ verifier: every path is a chain of neighbouring nodes from src to dst in
dimension order (lowest dimension first, wrap-around links only on a torus); (step, src, order) is
unique; a sender holds every chunk it sends at the start of the step; no directed link carries two
unicasts in one step; every node ends with every chunk; the number of deliveries of a chunk its
receiver already holds equals the reported check.repeated_chunks (0 with --exactly-once: every
node receives every other node's chunks exactly once).
"""
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    j = json.load(open(args[0]))
    exactly_once = "--exactly-once" in args
    want_steps = int(args[args.index("--steps") + 1]) if "--steps" in args else None
    s = j["schedule"]
    dims = s["dims"]
    kind = s["topology"].split(":")[0]
    torus = [k == "torus" for k in kind.split(",")]
    if len(torus) == 1:
        torus = torus * len(dims)
    per = s["chunks_per_node"]
    nodes = 1
    for k in dims:
        nodes *= k

    def node_id(c):
        v, m = 0, 1
        for x, k in zip(c, dims):
            if not 0 <= x < k:
                fail("coordinate %s outside %s" % (c, dims))
            v += x * m
            m *= k
        return v

    def hop_dim(a, b):
        """The dimension and direction of one link a -> b, or None."""
        diff = [d for d in range(len(dims)) if a[d] != b[d]]
        if len(diff) != 1:
            return None
        d = diff[0]
        delta = (b[d] - a[d]) % dims[d]
        if delta == 1 and (torus[d] or b[d] == a[d] + 1):
            return d, +1
        if delta == dims[d] - 1 and (torus[d] or b[d] == a[d] - 1):
            return d, -1
        return None

    holds = [set(range(x * per, x * per + per)) for x in range(nodes)]
    by_step = {}
    seen = set()
    for u in s["unicasts"]:
        key = (u["step"], tuple(u["src"]), u["order"])
        if key in seen:
            fail("two unicasts with step, src, order %s" % (key,))
        seen.add(key)
        if not 1 <= u["step"] <= s["steps"]:
            fail("step %d outside 1..%d" % (u["step"], s["steps"]))
        by_step.setdefault(u["step"], []).append(u)
    repeated = 0
    for step in sorted(by_step):
        links = set()
        arrivals = []
        for u in by_step[step]:
            path = u["path"]
            if path[0] != u["src"] or path[-1] != u["dst"] or len(path) < 2:
                fail("step %d: path %s does not lead from src %s to dst %s" % (step, path, u["src"], u["dst"]))
            last_dim = -1
            for a, b in zip(path, path[1:]):
                hop = hop_dim(a, b)
                if hop is None:
                    fail("step %d: %s -> %s is not a link of %s" % (step, a, b, s["topology"]))
                if hop[0] < last_dim:
                    fail("step %d: path %s is not dimension-ordered" % (step, path))
                last_dim = hop[0]
                link = (tuple(a), tuple(b))
                if link in links:
                    fail("step %d: link %s -> %s carries two unicasts" % (step, a, b))
                links.add(link)
            src, dst = node_id(u["src"]), node_id(u["dst"])
            chunks = set(u["chunks"])
            if not chunks <= holds[src]:
                fail("step %d: %s sends chunks it does not hold: %s" % (step, u["src"], sorted(chunks - holds[src])[:5]))
            arrivals.append((dst, chunks))
        for dst, chunks in arrivals:
            repeated += len(chunks & holds[dst])
            holds[dst] |= chunks
    everything = set(range(nodes * per))
    short = [x for x in range(nodes) if holds[x] != everything]
    if short:
        fail("%d nodes end without every chunk" % len(short))
    reported = j.get("check", {}).get("repeated_chunks")
    if reported is not None and reported != repeated:
        fail("repeated deliveries: counted %d, reported %d" % (repeated, reported))
    if exactly_once and repeated:
        fail("%d deliveries of a chunk the receiver already held (want exactly once)" % repeated)
    if want_steps is not None and s["steps"] != want_steps:
        fail("%d steps, the formula gives %d" % (s["steps"], want_steps))
    print("OK: %s %s, %d steps, %d unicasts, %d repeated deliveries" % (s["topology"], s["algo"], s["steps"], len(s["unicasts"]), repeated))


if __name__ == "__main__":
    main()
