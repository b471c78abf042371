#!/usr/bin/python3
"""Train the learned judgement of the Picket exchange (issue 30, docs/learning.md).

Reads the JSON lines of picket-selfplay (each position: what the seat knew, and candidate
discards each valued in the same sampled worlds), fits a small net that values a discard from
what the seat knew, and writes:
  - the model file (format below), which engine/net.c reads;
  - OUT.card.txt: the command, data, seed, split and figures that made it;
  - OUT.curve.dat and, with gnuplot, OUT.curve.png: the loss per epoch, train and validation;
  - with --expected FILE: inputs and the net's outputs computed in float64, for the C test.

Deterministic by --seed (torch and the split). Runs on the CPU; Debian's python3-torch, run with
/usr/bin/python3.

The inputs are 0/1, given in the examples as the indices of the ones ("inputs"), computed by the
engine itself (engine/picket/picket_features.h: their one definition). The first 108 are three
blocks of 36 cards (kept, discarded, known), a card suit * 9 + rank, and 133 to 212 two blocks of
10 a suit (its length kept, its longest run kept): the trainer renames the suits at random in all
of them alike, since Picket has no trumps.

The net learns what matters for choosing: the differences between a position's candidates (all
valued in the same worlds), each side less its position's mean (docs/experiments.md: better than
learning the value itself). Its output is a candidate's value against the others of its position,
not the hand's value.

The model file, little-endian: "PKNN", u32 version 1, u32 n_in, u32 n_h1, u32 n_h2, u32 the
length of a provenance text and the text, then float32: W1 [n_h1][n_in], b1 [n_h1],
W2 [n_h2][n_h1], b2 [n_h2], W3 [n_h2], b3. The net: relu(W1 x + b1), relu(W2 . + b2), W3 . + b3:
the seat's points less the opponent's for the hand, after this discard.
"""
import argparse
import json
import math
import os
import random
import shlex
import struct
import subprocess
import sys

N_IN = 258        # PICKET_XF_INPUTS
N_CARD_INPUTS = 108
SUIT_SHAPE = (133, 173)   # PICKET_XF_SHAPE, PICKET_XF_SUIT_RUNS: a block of 10 inputs a suit each
VERSION = 1


def load(paths):
    """Positions: (id, [(active, value, heuristic_rank)]) in file order."""
    positions = []
    for path in paths:
        with open(path, encoding="ascii") as f:
            for n, line in enumerate(f, 1):
                if not line.endswith("\n"):
                    print("train_exchange: %s: line %d is torn (no newline): left out" % (path, n), file=sys.stderr)
                    continue
                try:
                    p = json.loads(line)
                    if not p["candidates"]:
                        continue
                    cands = [([int(a) for a in c["inputs"]], float(c["value"]), int(c["rank"])) for c in p["candidates"]]
                    if any(a < 0 or a >= N_IN for c in cands for a in c[0]):
                        raise ValueError("an input index out of 0..%d" % (N_IN - 1))
                except (ValueError, KeyError, TypeError) as e:
                    sys.exit("train_exchange: %s: line %d: %s" % (path, n, e))
                positions.append(((p["preset"], p["i"], p["role"]), cands))
    return positions


def write_model(path, net, provenance):
    import torch
    with torch.no_grad():
        layers = [net[0], net[2], net[4]]
        blob = bytearray(b"PKNN")
        text = provenance.encode("utf-8")
        blob += struct.pack("<5I", VERSION, N_IN, layers[0].out_features, layers[1].out_features, len(text))
        blob += text
        for layer in layers:
            for t in (layer.weight, layer.bias):
                vals = t.detach().float().reshape(-1).tolist()
                blob += struct.pack("<%df" % len(vals), *vals)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="+", help="picket-selfplay output files")
    ap.add_argument("--out", help="the model file to write")
    ap.add_argument("--judge", metavar="MODEL", help="train nothing: judge MODEL's picks on the data's validation positions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--hidden", type=int, nargs=2, default=[64, 32], metavar=("H1", "H2"))
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=8, help="positions a step (all their candidates)")
    ap.add_argument("--expected", help="write inputs and float64 outputs for the C agreement test")
    ap.add_argument("--report", help="where the model card, the loss curve's data and picture go (PREFIX.card.txt, PREFIX.curve.dat, PREFIX.curve.png; default: the model's path)")
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("train_exchange: PyTorch is missing: install Debian's python3-torch (tools/setup.sh) and run with /usr/bin/python3")
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(1)

    if not args.out and not args.judge:
        sys.exit("train_exchange: give --out MODEL to train, or --judge MODEL")
    positions = load(args.data)
    if args.judge:
        val = [p for p in positions if hash_id(p[0]) % 10 == 0]
        for k, v in judge(read_model(args.judge), val).items():
            print("validation: %s %s" % (k, v))
        return
    if len(positions) < 20:
        sys.exit("train_exchange: %d positions with candidates: too few to train on" % len(positions))
    # The split by position (never a position's candidates on both sides): every tenth, by a
    # hash of its id, is for validation.
    val = [p for p in positions if hash_id(p[0]) % 10 == 0]
    train = [p for p in positions if hash_id(p[0]) % 10 != 0]
    n_examples = sum(len(cs) for _, cs in train)
    print("train_exchange: %d positions (%d examples) to train on, %d positions to validate" % (len(train), n_examples, len(val)), flush=True)

    h1, h2 = args.hidden
    net = torch.nn.Sequential(torch.nn.Linear(N_IN, h1), torch.nn.ReLU(), torch.nn.Linear(h1, h2), torch.nn.ReLU(), torch.nn.Linear(h2, 1))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    perms = suit_renamings()
    tx, ty, tspan = tensors(train)
    vx, vy, vspan = tensors(val)
    vseg = segments(vspan)

    def loss_of(pred, y, seg, n):
        # The luck of the deal is common to a position's candidates (the same worlds): only the
        # differences between them are learned, each side less its position's mean.
        cnt = torch.bincount(seg, minlength=n).float()
        pm = torch.zeros(n).index_add_(0, seg, pred) / cnt
        ym = torch.zeros(n).index_add_(0, seg, y) / cnt
        return torch.nn.functional.mse_loss(pred - pm[seg], y - ym[seg])

    curve = []
    order = list(range(len(tspan)))
    for epoch in range(1, args.epochs + 1):
        random.shuffle(order)
        net.train()
        total, seen = 0.0, 0
        for b in range(0, len(order), args.batch):
            chunk = order[b:b + args.batch]
            # a position's candidates are renamed alike, each position at random
            x = torch.cat([tx[tspan[k][0]:tspan[k][1]][:, random.choice(perms)] for k in chunk]).float()
            y = torch.cat([ty[tspan[k][0]:tspan[k][1]] for k in chunk])
            seg = segments([tspan[k] for k in chunk])
            opt.zero_grad()
            loss = loss_of(net(x).squeeze(1), y, seg, len(chunk))
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
            seen += len(y)
        net.eval()
        with torch.no_grad():
            vloss = loss_of(net(vx.float()).squeeze(1), vy, vseg, len(vspan)).item()
        curve.append((epoch, total / seen, vloss))
        print("epoch %3d  train mse %8.3f  validation mse %8.3f" % curve[-1], flush=True)

    figures = judge(net, val)
    for k, v in figures.items():
        print("validation: %s %s" % (k, v))
    command = " ".join(shlex.quote(a) for a in ["/usr/bin/python3"] + sys.argv)
    provenance = "picket exchange net v%d; %s; %d positions %d examples; seed %d" % (VERSION, command, len(train), n_examples, args.seed)
    write_model(args.out, net, provenance)
    report = args.report or args.out
    with open(report + ".curve.dat", "w") as f:
        f.write("# epoch train_mse validation_mse\n")
        for row in curve:
            f.write("%d %.6f %.6f\n" % row)
    with open(report + ".card.txt", "w") as f:
        f.write("command: %s\n" % command)
        f.write("data: %s\n" % ", ".join(args.data))
        f.write("positions: %d to train (%d examples), %d to validate\n" % (len(train), n_examples, len(val)))
        f.write("net: %d inputs, hidden %d and %d (relu), 1 output; seed %d; %d epochs, Adam lr %g, %d positions a batch; each candidate less its position's mean\n" % (N_IN, h1, h2, args.seed, args.epochs, args.lr, args.batch))
        f.write("final: train mse %.3f, validation mse %.3f\n" % curve[-1][1:])
        for k, v in figures.items():
            f.write("validation %s: %s\n" % (k, v))
    png = report + ".curve.png"
    gp = ("set terminal png size 700,420 noenhanced\nset output '%s'\nset xlabel 'epoch'\nset ylabel 'mean squared error (points^2)'\n"
          "plot '%s' using 1:2 with lines title 'train', '' using 1:3 with lines title 'validation'\n" % (png, report + ".curve.dat"))
    try:
        subprocess.run(["gnuplot"], input=gp.encode(), check=True)
    except (OSError, subprocess.CalledProcessError):
        print("train_exchange: gnuplot could not draw %s (is gnuplot-nox installed?)" % png, file=sys.stderr)
    if args.expected:
        write_expected(args.expected, net, val)
    print("train_exchange: wrote %s" % args.out)


def hash_id(pid):
    h = 1469598103934665603
    for ch in "%s/%s/%s" % pid:
        h = ((h ^ ord(ch)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def suit_renamings():
    """The 24 renamings of the suits, each as the column order that applies it to dense inputs."""
    import itertools
    import torch
    out = []
    for perm in itertools.permutations(range(4)):
        cols = list(range(N_IN))
        for a in range(N_CARD_INPUTS):
            block, c = divmod(a, 36)
            s, r = divmod(c, 9)
            cols[block * 36 + perm[s] * 9 + r] = a
        for base in SUIT_SHAPE:
            for s in range(4):
                for k in range(10):
                    cols[base + perm[s] * 10 + k] = base + s * 10 + k
        out.append(torch.tensor(cols))
    return out


def tensors(positions):
    """All candidates' inputs (dense, uint8), their values, and each position's span of rows."""
    import torch
    rows = sum(len(cs) for _, cs in positions)
    x = torch.zeros(rows, N_IN, dtype=torch.uint8)
    y = torch.empty(rows)
    spans, r = [], 0
    for _, cs in positions:
        spans.append((r, r + len(cs)))
        for a, v, _ in cs:
            x[r, a] = 1
            y[r] = v
            r += 1
    return x, y, spans


def segments(spans):
    """For rows gathered span after span, the index of the span each row came from."""
    import torch
    return torch.cat([torch.full((e - s,), k, dtype=torch.long) for k, (s, e) in enumerate(spans)])


def judge(net, val):
    """The net's choice among each position's candidates, against the best candidate's value
    (the reference: the same worlds for all): mean regret, the heuristic's first choice's, and
    their paired difference with its 95% interval (normal approximation), for all positions and
    for elder's and younger's apart."""
    import torch
    rows = []   # (role, regret of the net's pick, of the heuristic's first, agree)
    with torch.no_grad():
        for pid, cs in val:
            x = torch.zeros(len(cs), N_IN)
            for row, (a, _, _) in enumerate(cs):
                x[row, a] = 1.0
            pred = net(x).squeeze(1).tolist()
            best = max(v for _, v, _ in cs)
            pick = max(range(len(cs)), key=lambda k: pred[k])
            heur = next(k for k, (_, _, r) in enumerate(cs) if r == 0)
            rows.append((pid[2], best - cs[pick][1], best - cs[heur][1], pick == heur))
    out = {}
    for role in (None, "elder", "younger"):
        sel = [r for r in rows if role is None or r[0] == role]
        n = len(sel)
        if n < 2:
            continue
        d = [r[2] - r[1] for r in sel]
        mean = sum(d) / n
        half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)
        tag = "" if role is None else " (%s)" % role
        out["positions%s" % tag] = "%d" % n
        out["mean regret of the net's pick (points)%s" % tag] = "%.3f" % (sum(r[1] for r in sel) / n)
        out["mean regret of the heuristic's first (points)%s" % tag] = "%.3f" % (sum(r[2] for r in sel) / n)
        out["the net's pick better by (points)%s" % tag] = "%.3f +- %.3f (95%%)" % (mean, half)
    out["net picks the heuristic's first"] = "%.1f%%" % (100.0 * sum(r[3] for r in rows) / max(1, len(rows)))
    return out


def read_model(path):
    """A model file back into the net (the --judge mode)."""
    import torch
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:4] != b"PKNN" or len(blob) < 24:
        sys.exit("train_exchange: %s: not a picket net" % path)
    version, n_in, h1, h2, plen = struct.unpack("<5I", blob[4:24])
    if version != VERSION or n_in != N_IN:
        sys.exit("train_exchange: %s: version %d with %d inputs; this trainer writes version %d with %d" % (path, version, n_in, VERSION, N_IN))
    net = torch.nn.Sequential(torch.nn.Linear(N_IN, h1), torch.nn.ReLU(), torch.nn.Linear(h1, h2), torch.nn.ReLU(), torch.nn.Linear(h2, 1))
    at = 24 + plen
    with torch.no_grad():
        for layer in (net[0], net[2], net[4]):
            for t in (layer.weight, layer.bias):
                n = t.numel()
                if at + 4 * n > len(blob):
                    sys.exit("train_exchange: %s: cut short" % path)
                t.copy_(torch.tensor(struct.unpack("<%df" % n, blob[at:at + 4 * n])).reshape(t.shape))
                at += 4 * n
    if at != len(blob):
        sys.exit("train_exchange: %s: %d bytes more than its sizes make" % (path, len(blob) - at))
    return net


def write_expected(path, net, val):
    import torch
    rows = [a for _, cs in val[:50] for a, _, _ in cs][:400]
    with torch.no_grad():
        d = net.double()
        out = []
        for a in rows:
            x = torch.zeros(1, N_IN, dtype=torch.float64)
            x[0, a] = 1.0
            out.append(d(x).item())
        net.float()
    with open(path, "w") as f:
        f.write("# inputs (active indices) and the net's output in float64 (train_exchange.py --expected)\n")
        for a, y in zip(rows, out):
            f.write("%.12f %s\n" % (y, " ".join(str(i) for i in a)))


if __name__ == "__main__":
    main()
