"""Helpers the notebooks share: find (or build) the fprlab binary, run it
with --json and parse the output, and tell whether a command exists.

Configuration comes from the environment, so that CI can run every
notebook on a small configuration:

  FPRLAB                path of the fprlab binary (default: fprlab on PATH,
                        else built from ../cmd/fprlab with `go build`)
  FPRLAB_NB_RECORDS     KAT records per backend (default 100, the whole file)
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


def log2_str(v, digits=1):
    """A log2 value as the documents write it, for people: 2^-46.3; null
    (log2 of zero, an exact result) as "exact"; absent or NaN as "not
    measured"."""
    if v is None:
        return "exact"
    try:
        f = float(v)
    except (TypeError, ValueError):
        return "not measured"
    if f != f:
        return "not measured"
    if f == float("-inf"):
        return "exact"
    return "2^%.*f" % (digits, f)


def number_str(v, digits=1, none="not measured"):
    """A number rounded for reading; None or NaN spelled out."""
    if v is None:
        return none
    f = float(v)
    if f != f:
        return none
    return "%.*f" % (digits, f)


def yes_no(v):
    """True/False/None as yes/no/not measured."""
    return {True: "yes", False: "no"}.get(v, "not measured")


def pstar_str(bits, max_bits, found=None):
    """P* for people: "59 bits", or "not reached (up to 64 bits)"."""
    if bits is None or found is False:
        return "not reached (up to %d bits)" % max_bits
    return "%d bits" % bits


def sweep_points(doc):
    """The per-format objects of a sweep --json document: the document
    itself when it is an array, its "formats" when it is an object (the
    shape that carries P* beside the table)."""
    if doc is None:
        return []
    if isinstance(doc, dict):
        return list(doc.get("formats") or [])
    return list(doc)


def sweep_pstar(doc):
    """The P* object of a sweep --json document, or None (an array
    document carries none)."""
    if isinstance(doc, dict):
        return doc.get("pstar")
    return None


def flips_total(d):
    """The total of a compare object's flips: its "total", else the sum of
    its counts; None without a flips object."""
    f = d.get("flips")
    if f is None:
        return None
    if "total" in f:
        return f["total"]
    return sum(v for k, v in f.items() if isinstance(v, int) and not isinstance(v, bool) and "log2" not in k and "margin" not in k)


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
