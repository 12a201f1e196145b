#!/usr/bin/env python3
"""Positions from played games, one SFEN a line, for `kshogi-nnue train/pipeline --openings`.

Reads the KIF records of matches (`kshogi match --out DIR` writes one per game), takes the
position after every STEP-th ply from ply FIRST on (not the last two plies of a game, nor a
position without a legal move), drops repeats, draws COUNT of them with a seed and writes
them with a header. An existing output file is an error, never overwritten.

    python3 docs/openings/positions-from-records.py --kshogi target/release/kshogi \\
        --variant minishogi --count 6000 --seed 50 --out positions.txt RECORDS_DIR...
"""
import argparse
import pathlib
import random
import subprocess
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=pathlib.Path, help="directories of KIF records")
    ap.add_argument("--kshogi", required=True, help="the kshogi binary")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--first", type=int, default=6, help="first ply taken (default 6)")
    ap.add_argument("--step", type=int, default=4, help="plies between two taken (default 4)")
    ap.add_argument("--count", type=int, required=True, help="positions to write")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--note", default="", help="words for the header (where the games come from)")
    ap.add_argument("--out", type=pathlib.Path, required=True)
    a = ap.parse_args()
    if a.out.exists():
        print(f"error: {a.out} exists; choose another --out", file=sys.stderr)
        return 1
    if a.first < 0 or a.step < 1 or a.count < 1:
        print("error: --first must be at least 0, --step and --count at least 1", file=sys.stderr)
        return 1
    files = sorted(f for d in a.dirs for f in d.glob("*.kif"))
    if not files:
        print("error: no .kif record in " + ", ".join(map(str, a.dirs)), file=sys.stderr)
        return 1
    seen, positions, games = set(), [], 0
    for f in files:
        run = subprocess.run(
            [a.kshogi, "convert", "--variant", a.variant, "--to", "sfen", "--all", str(f)],
            capture_output=True, text=True)
        if run.returncode != 0:
            print(f"error: {f}: {run.stderr.strip()}", file=sys.stderr)
            return 1
        sfens = run.stdout.split("\n")
        sfens = [s.strip() for s in sfens if s.strip()]
        games += 1
        # sfens[k] is the position after k plies; the last two plies are left out.
        for k in range(a.first, len(sfens) - 2, a.step):
            board = " ".join(sfens[k].split()[:3])  # the move number does not matter
            if board in seen:
                continue
            seen.add(board)
            positions.append(sfens[k])
    # A position without a legal move ends the game at once: left out.
    keep = []
    for s in positions:
        run = subprocess.run([a.kshogi, "moves", "--variant", a.variant, s],
                             capture_output=True, text=True)
        if run.returncode == 0 and run.stdout.strip():
            keep.append(s)
    random.Random(a.seed).shuffle(keep)
    if len(keep) < a.count:
        print(f"error: only {len(keep)} distinct positions in {games} games, not {a.count}",
              file=sys.stderr)
        return 1
    found = len(keep)
    keep = keep[: a.count]
    with open(a.out, "x") as out:
        out.write(f"# {a.count} positions of {a.variant} from {games} played games: every "
                  f"{a.step}th ply from ply {a.first}, repeats dropped, drawn with seed {a.seed}"
                  f" (docs/openings/positions-from-records.py)\n")
        if a.note:
            out.write(f"# {a.note}\n")
        for s in keep:
            out.write(s + "\n")
    print(f"{a.out}: {a.count} of {found} positions from {games} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
