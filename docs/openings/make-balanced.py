import subprocess, random, sys
"""Balanced openings for fixed-node SPRTs (docs/strength.md, "Search changes").

usage: python3 make-balanced.py KSHOGI VARIANT SEED COUNT OUT

Plays 4 uniformly random legal plies from the start (the legal moves from kshogi's
`go perft 1`), keeps the line when kshogi's `go nodes 50000` scores it within 120 cp and
no mate, skips repeats, and writes COUNT lines `startpos moves ...` to OUT (which
`kshogi match --openings` reads).
"""
exe, variant, seed, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
p = subprocess.Popen([exe, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def until(pred):
    lines = []
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit("engine died")
        l = l.rstrip("\n"); lines.append(l)
        if pred(l): return lines
send("usi"); until(lambda l: l == "usiok")
send("setoption name USI_Variant value " + variant); send("isready"); until(lambda l: l == "readyok")
rng = random.Random(seed); seen = set(); res = []
while len(res) < count:
    moves = []
    ok = True
    for _ in range(4):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("go perft 1")
        lines = until(lambda l: l.startswith("Nodes searched"))
        legal = [l.split(":")[0] for l in lines if ":" in l and not l.startswith("Nodes")]
        if not legal: ok = False; break
        moves.append(rng.choice(legal))
    if not ok: continue
    line = "startpos moves " + " ".join(moves)
    if line in seen: continue
    send("usinewgame"); send("position " + line); send("go nodes 50000")
    lines = until(lambda l: l.startswith("bestmove"))
    infos = [l for l in lines if l.startswith("info depth") and " score " in l]
    if not infos: continue
    t = infos[-1].split(); sc = t[t.index("score") + 1]; v = int(t[t.index("score") + 2])
    if sc == "cp" and abs(v) <= 120 and not lines[-1].startswith("bestmove resign"):
        seen.add(line); res.append(line)
with open(out, "w") as f:
    f.write(f"# {count} openings of {variant}: 4 uniformly random plies (Python's random, seed {seed}), kept when\n")
    f.write(f"# kshogi scores them within 120 cp, no mate, after `go nodes 50000` (docs/openings/make-balanced.py)\n")
    for l in res: f.write(l + "\n")
send("quit")
