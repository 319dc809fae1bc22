// A persistent @noble/post-quantum Falcon peer for the interop test
// (../noble_test.go): one JSON request per line on stdin, one JSON answer
// per line on stdout. Byte strings travel as hex.
//
//   {"op":"version"}                                   -> {"version":"0.7.1"}
//   {"op":"keygen","n":512,"seed":HEX48?}              -> {"pk":HEX,"sk":HEX}
//   {"op":"sign","n":512,"format":F,"sk":HEX,"msg":HEX} -> {"sig":HEX}
//   {"op":"verify","n":512,"format":F,"pk":HEX,"msg":HEX,"sig":HEX} -> {"valid":BOOL}
//
// F is "compressed" (falcon512/falcon1024: falcon.h variable-length
// detached signatures), "padded" (falcon512padded/falcon1024padded:
// falcon.h fixed-length detached signatures) or "attached" (the
// .attached API of the compressed variant: the NIST signed-message layout
// of the round-3 KAT files). Any failure answers {"error": message}.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { webcrypto } from 'node:crypto';

// Node 18 (Debian 12's nodejs) has no global Web Crypto; noble's
// randomBytes needs crypto.getRandomValues.
if (globalThis.crypto === undefined) globalThis.crypto = webcrypto;

const { falcon512, falcon512padded, falcon1024, falcon1024padded } = await import(
  '@noble/post-quantum/falcon.js'
);
const pkgJSON = new URL('./node_modules/@noble/post-quantum/package.json', import.meta.url);
const version = JSON.parse(readFileSync(pkgJSON, 'utf8')).version;

const schemes = {
  512: { compressed: falcon512, padded: falcon512padded },
  1024: { compressed: falcon1024, padded: falcon1024padded },
};

const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => {
  if (typeof s !== 'string' || !/^([0-9a-f]{2})*$/.test(s)) throw new Error('bad hex');
  return new Uint8Array(Buffer.from(s, 'hex'));
};

function scheme(n, format) {
  const byN = schemes[n];
  if (byN === undefined) throw new Error(`unknown degree ${n}`);
  if (format === 'attached') return byN.compressed;
  const s = byN[format];
  if (s === undefined) throw new Error(`unknown format ${format}`);
  return s;
}

function handle(req) {
  switch (req.op) {
    case 'version':
      return { version };
    case 'keygen': {
      const s = scheme(req.n, 'compressed');
      const k = req.seed === undefined ? s.keygen() : s.keygen(unhex(req.seed));
      return { pk: hex(k.publicKey), sk: hex(k.secretKey) };
    }
    case 'sign': {
      const s = scheme(req.n, req.format);
      const msg = unhex(req.msg);
      const sk = unhex(req.sk);
      const sig = req.format === 'attached' ? s.attached.seal(msg, sk) : s.sign(msg, sk);
      return { sig: hex(sig) };
    }
    case 'verify': {
      const s = scheme(req.n, req.format);
      const msg = unhex(req.msg);
      const sig = unhex(req.sig);
      const pk = unhex(req.pk);
      if (req.format !== 'attached') return { valid: s.verify(sig, msg, pk) };
      let opened;
      try {
        opened = s.attached.open(sig, pk);
      } catch {
        return { valid: false };
      }
      return { valid: Buffer.from(opened).equals(Buffer.from(msg)) };
    }
    default:
      throw new Error(`unknown op ${req.op}`);
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  let out;
  try {
    out = handle(JSON.parse(line));
  } catch (e) {
    out = { error: String(e && e.message ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
