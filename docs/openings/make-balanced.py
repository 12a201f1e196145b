"""Balanced openings for matches and fixed-node SPRTs (docs/strength.md, "Search changes").

usage: python3 make-balanced.py KSHOGI VARIANT SEED COUNT OUT [options]

Plays 4 uniformly random legal plies from the start (the legal moves from kshogi's
`go perft 1`), keeps the line when kshogi's `go nodes 50000` scores it within 120 cp and
no mate, skips repeats, and writes COUNT lines `startpos moves ...` to OUT (which
`kshogi match --openings` reads). OUT is written once, at the end, and is never
overwritten: an existing OUT is an error.

options:
  --plies N          random plies (default 4)
  --nodes N          nodes of each judge's search (default 50000)
  --window CP        the largest score kept, either way (default 120)
  --judge CMD        a second judge: a USI engine command (for example the reference
                     engine's binary); a line is kept only when both judges score it
                     within the window, so an opening that one engine's evaluation
                     calls decided is left out even when the other's calls it level
  --judge-variant V  the second judge's name of the variant (default VARIANT)
  --names TEXT       who the judges are, for the file's header (for example
                     "kshogi at <commit> and Fairy-Stockfish <commit>")
  --max-tries N      random lines drawn (repeats included) before giving up with an
                     error and writing nothing (default 50 * COUNT + 1000): with few
                     plies or a narrow window there may not be COUNT level lines
"""
import argparse, os, random, shlex, subprocess, sys

ap = argparse.ArgumentParser(usage=__doc__)
ap.add_argument("kshogi"); ap.add_argument("variant"); ap.add_argument("seed", type=int)
ap.add_argument("count", type=int); ap.add_argument("out")
ap.add_argument("--plies", type=int, default=4); ap.add_argument("--nodes", type=int, default=50000)
ap.add_argument("--window", type=int, default=120)
ap.add_argument("--judge"); ap.add_argument("--judge-variant"); ap.add_argument("--names")
ap.add_argument("--max-tries", type=int)
a = ap.parse_args()
max_tries = a.max_tries if a.max_tries is not None else 50 * a.count + 1000
if os.path.exists(a.out):
    sys.exit(f"make-balanced.py: {a.out} exists; not overwritten")


class Engine:
    def __init__(self, cmd, variant):
        self.name = cmd
        try:
            self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as e:
            sys.exit(f"make-balanced.py: cannot start `{cmd}`: {e}")
        self.send("usi"); self.until(lambda l: l == "usiok")
        # kshogi reads both names; the reference engine reads UCI_Variant in USI mode too
        self.send("setoption name USI_Variant value " + variant)
        self.send("setoption name UCI_Variant value " + variant)
        self.send("isready"); self.until(lambda l: l == "readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n"); self.p.stdin.flush()

    def until(self, pred):
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                sys.exit(f"make-balanced.py: `{self.name}` stopped")
            l = l.rstrip("\n"); lines.append(l)
            if pred(l):
                return lines

    def level(self, line):
        """Whether a `go nodes` search scores the position within the window, no mate."""
        self.send("usinewgame"); self.send("position " + line); self.send(f"go nodes {a.nodes}")
        lines = self.until(lambda l: l.startswith("bestmove"))
        infos = [l for l in lines if l.startswith("info") and " score " in l]
        if not infos or lines[-1].startswith("bestmove resign"):
            return False
        t = infos[-1].split(); kind = t[t.index("score") + 1]; v = int(t[t.index("score") + 2])
        return kind == "cp" and abs(v) <= a.window

    def quit(self):
        self.send("quit")


k = Engine(a.kshogi + " usi", a.variant)
judges = [k]
if a.judge:
    judges.append(Engine(a.judge, a.judge_variant or a.variant))
rng = random.Random(a.seed); seen = set(); res = []; judged = 0; tries = 0
while len(res) < a.count:
    if tries >= max_tries:
        for j in judges:
            j.quit()
        sys.exit(f"make-balanced.py: only {len(res)} of {a.count} level lines after {tries} random "
                 f"lines ({judged} distinct, judged); try more --plies, a wider --window or a "
                 f"larger --max-tries; {a.out} not written")
    tries += 1
    moves = []
    ok = True
    for _ in range(a.plies):
        k.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        k.send("go perft 1")
        lines = k.until(lambda l: l.startswith("Nodes searched"))
        legal = [l.split(":")[0] for l in lines if ":" in l and not l.startswith("Nodes")]
        if not legal: ok = False; break
        moves.append(rng.choice(legal))
    if not ok: continue
    line = "startpos moves " + " ".join(moves)
    if line in seen: continue
    seen.add(line); judged += 1
    if all(j.level(line) for j in judges):
        res.append(line)
    if judged % 50 == 0:
        print(f"make-balanced.py: {judged} lines judged, {len(res)} kept", file=sys.stderr, flush=True)
with open(a.out, "x") as f:
    f.write(f"# {a.count} openings of {a.variant}: {a.plies} uniformly random plies (Python's random, seed {a.seed}), kept when\n")
    who = a.names or ("kshogi" + (" and the second judge" if a.judge else ""))
    f.write(f"# {who} score them within {a.window} cp, no mate, after `go nodes {a.nodes}` (docs/openings/make-balanced.py)\n")
    for l in res: f.write(l + "\n")
for j in judges:
    j.quit()
print(f"make-balanced.py: kept {len(res)} of {judged} lines judged; wrote {a.out}", file=sys.stderr)
