"""Helpers the notebooks share: find (or build) the fprlab binary, run it
with --json and parse the output, and tell whether a command exists.

Configuration comes from the environment, so that CI can run every
notebook on a small configuration:

  FPRLAB                path of the fprlab binary (default: fprlab on PATH,
                        else built from ../cmd/fprlab with `go build`)
  FPRLAB_NB_RECORDS     KAT records per backend (default 10)
  FPRLAB_NB_SIGNATURES  signatures per compare / sweep run (default 200)
  FPRLAB_NB_BITS        sweep precisions FROM:TO:STEP (default 24:64:4)
  FPRLAB_NB_COMPARE_JSON, FPRLAB_NB_SWEEP_JSON
                        a saved compare / sweep --json document to show instead
                        of running the command
"""

import json
import os
import shutil
import subprocess
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))


def binary():
    """Return the path of the fprlab binary, building it once if needed."""
    path = os.environ.get("FPRLAB") or shutil.which("fprlab")
    if path:
        return path
    out = os.path.join(tempfile.gettempdir(), "fprlab-notebooks", "fprlab")
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run(["go", "build", "-o", out, "./cmd/fprlab"], cwd=os.path.join(_HERE, ".."), check=True)
    os.environ["FPRLAB"] = out
    return out


def setting(name, default):
    """An integer or string setting from the environment."""
    v = os.environ.get(name)
    if v is None:
        return default
    return type(default)(v)


def document(env):
    """The JSON document named by environment variable env, or None."""
    path = os.environ.get(env)
    if not path:
        return None
    with open(path) as f:
        doc = json.load(f)
    print("showing %s (from %s)" % (env, path))
    return doc


def run_json(*args, ok_codes=(0,)):
    """Run fprlab with args (which should include --json) and return the
    parsed standard output. Exit codes outside ok_codes raise, with fprlab's
    stderr in the message."""
    p = subprocess.run([binary(), *args], capture_output=True, text=True)
    if p.returncode not in ok_codes:
        raise RuntimeError("fprlab %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return json.loads(p.stdout)


def has_command(name):
    """Whether this fprlab has the command (its help exits 0)."""
    p = subprocess.run([binary(), name, "--help"], capture_output=True, text=True)
    return p.returncode == 0 and ("Usage:" in p.stdout) and ("fprlab " + name) in p.stdout


def pstar(points, criterion):
    """P* of one curve as package analysis/results defines it: the least
    swept precision at which the criterion holds there and at every larger
    swept precision. points: list of (bits, holds) pairs. Returns None when
    it does not hold at the largest precision."""
    best = None
    for bits, holds in sorted(points, reverse=True):
        if not holds:
            break
        best = bits
    return best
