package falcon

import (
	"bufio"
	"crypto/sha3"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon/internal/nistdrbg"
)

// The NIST known-answer-test flow of the round-3 submission.
//
// The NIST generator (PQCgenKAT_sign.c) seeds its AES-256 CTR_DRBG with
// the bytes 0..47 and draws, for record i, a 48-byte seed and a message of
// 33(i+1) bytes: these form the .req file. For the .rsp file it re-seeds
// the DRBG with each record's seed and calls the submission's NIST API
// (nist.c), which draws from that DRBG:
//
//	crypto_sign_keypair: 48 bytes -> SHAKE256 -> Zf(keygen)
//	crypto_sign:         40-byte nonce; 48 bytes -> SHAKE256 -> Zf(sign_dyn)
//
// The signed message has the round-3 layout of EncodeSM. Everything here
// is deterministic given the backend, so regenerating the files checks
// key generation and signing end to end, bit for bit.

// KATRecord is one record of a NIST KAT response file.
type KATRecord struct {
	Count      int
	Seed, Msg  []byte
	PK, SK, SM []byte
}

// katSeedSize is the length of a record seed and of each randomness
// request of the NIST API (keygen seed and sampler seed).
const katSeedSize = nistdrbg.SeedSize

// KATName returns the algorithm name of the KAT file header for degree
// 2^logn ("Falcon-512", "Falcon-1024"); only those two have NIST files.
func KATName(logn uint) (string, error) {
	switch logn {
	case 9, 10:
		return fmt.Sprintf("Falcon-%d", 1<<logn), nil
	}
	return "", fmt.Errorf("falcon: the NIST KAT is defined for Falcon-512 and Falcon-1024 (logn 9, 10), not logn %d", logn)
}

// MaxKATRequests is the number of request records KATRequests and
// KATRequest can produce. Record i's message is 33(i+1) bytes (the NIST
// generator's PQCgenKAT_sign.c), so the first n records hold 33n(n+1)/2
// message bytes: 16.5 MB for 1,000 records. The published files have 100.
const MaxKATRequests = 1000

// katRequestStream draws the request records in order from the DRBG the
// NIST generator seeds with the bytes 0..47.
type katRequestStream struct {
	d    *nistdrbg.DRBG
	next int
}

func newKATRequestStream() *katRequestStream {
	var entropy [nistdrbg.SeedSize]byte
	for i := range entropy {
		entropy[i] = byte(i)
	}
	return &katRequestStream{d: nistdrbg.New(&entropy)}
}

// record draws the next record (count, seed and message).
func (s *katRequestStream) record() KATRecord {
	r := KATRecord{Count: s.next, Seed: make([]byte, katSeedSize), Msg: make([]byte, 33*(s.next+1))}
	s.d.Generate(r.Seed)
	s.d.Generate(r.Msg)
	s.next++
	return r
}

// KATRequests returns the first n records of the request file: count, seed
// and message, drawn from the DRBG seeded with the bytes 0..47. It returns
// nil when n is not in 1..MaxKATRequests (callers check n against their
// own bound, such as the reference file's length, first).
func KATRequests(n int) []KATRecord {
	if n < 1 || n > MaxKATRequests {
		return nil
	}
	s := newKATRequestStream()
	recs := make([]KATRecord, n)
	for i := range recs {
		recs[i] = s.record()
	}
	return recs
}

// KATRequest returns record count (0 <= count < MaxKATRequests) of the
// request file, as KATRequests(count+1)[count] does, without keeping the
// records before it.
func KATRequest(count int) (KATRecord, error) {
	if count < 0 || count >= MaxKATRequests {
		return KATRecord{}, fmt.Errorf("falcon: KAT request %d: records are numbered 0 to %d", count, MaxKATRequests-1)
	}
	s := newKATRequestStream()
	for s.next < count {
		s.record()
	}
	return s.record(), nil
}

// KATOptions are GenerateKAT's choices beyond the record.
type KATOptions struct {
	// Keygen is the backend that generates the keys; Sign the one that
	// signs (when zero, Keygen signs too). Splitting them measures the
	// signing arithmetic of a backend that cannot generate keys (triword:
	// NTRUSolve needs binary64's exponent range) on the reference's own
	// keys, taken from a binary64 Keygen: the DRBG stream is consumed
	// exactly as in the reference.
	Keygen, Sign arith.Backend
	// Mode is the signing procedure: Dyn (the default, crypto_sign's
	// falcon_sign_dyn, which the published KATs record) or Tree (the
	// expanded key, falcon_sign_tree, on the same key and randomness).
	Mode Mode
	// MaxKeygenFailures, when not zero, makes key generation give up
	// after that many consecutive failed candidates (at least 1) instead
	// of the default 4096 (see Keygen); r.PK then stays nil.
	MaxKeygenFailures int
	// Streams, when not nil, receives the number of bytes the record's
	// flow read from its two SHAKE256 streams.
	Streams *KATStreams
}

// GenerateKAT computes the pk, sk and sm of a request record (its Seed and
// Msg) for degree 2^logn, as crypto_sign_keypair and crypto_sign do on the
// DRBG re-seeded with the record's seed, with the backends of o.
func GenerateKAT(logn uint, r *KATRecord, o KATOptions) error {
	sb := o.Sign
	if sb.Impl == nil {
		sb = o.Keygen
	}
	return generateKATRecord(o.Keygen, logn, r, o.Streams, signOver(sb, o.Mode), o.MaxKeygenFailures)
}

// katSigner is crypto_sign's signing step: s2 for hashed point hm with
// the sampler seeds read from rng.
type katSigner func(sk *PrivateKey, hm []uint16, rng io.Reader) ([]int16, error)

// signOver is the signing step of the reference's NIST API over backend b
// in the given mode.
func signOver(b arith.Backend, mode Mode) katSigner {
	return func(sk *PrivateKey, hm []uint16, rng io.Reader) ([]int16, error) {
		return SignHashedMode(b, sk, hm, rng, mode)
	}
}

// KATStreams counts the bytes one record's NIST flow reads from its two
// SHAKE256 streams (crypto_sign_keypair's and crypto_sign's): what a
// hardware or software Keccak implementation has to squeeze for them.
type KATStreams struct {
	// KeygenBytes is read by key generation (8 bytes per random word,
	// several candidates when some are rejected), SignBytes by signing
	// (one SeedSize-byte sampler seed per attempt).
	KeygenBytes, SignBytes int64
}

// byteCounter counts the bytes read through it into *n.
type byteCounter struct {
	r io.Reader
	n *int64
}

func (c byteCounter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	*c.n += int64(k)
	return k, err
}

// generateKATRecord is the NIST flow of record r: keys over kb (giving up
// after limit consecutive failed candidates; 0: maxKeygenFailures),
// signature by sign, stream bytes counted into st when it is not nil.
func generateKATRecord(kb arith.Backend, logn uint, r *KATRecord, st *KATStreams, sign katSigner, limit int) error {
	if limit == 0 {
		limit = maxKeygenFailures
	}
	// stream wraps a SHAKE256 stream with a byte counter when counting.
	stream := func(h io.Reader, n func(*KATStreams) *int64) io.Reader {
		if st == nil {
			return h
		}
		return byteCounter{h, n(st)}
	}
	if _, err := KATName(logn); err != nil {
		return err
	}
	if r == nil {
		return errors.New("falcon: nil KAT record")
	}
	if len(r.Seed) != katSeedSize {
		return fmt.Errorf("falcon: KAT record %d: seed is %d bytes, want %d", r.Count, len(r.Seed), katSeedSize)
	}
	d := nistdrbg.New((*[nistdrbg.SeedSize]byte)(r.Seed))

	// crypto_sign_keypair.
	sk, pk, err := keygenLimit(kb, logn, stream(shakeOfDRBG(d), func(s *KATStreams) *int64 { return &s.KeygenBytes }), limit)
	if err != nil {
		return err
	}
	r.PK = pk.Encode()
	r.SK = sk.Encode()
	if r.PK == nil || r.SK == nil {
		return fmt.Errorf("falcon: KAT record %d: generated key does not encode", r.Count)
	}

	// crypto_sign: decode the private key (recomputing G), nonce, hash,
	// sampler seed, sign, bundle.
	dsk, err := DecodePrivateKey(r.SK)
	if err != nil {
		return err
	}
	nonce := make([]byte, NonceSize)
	d.Generate(nonce)
	hm := HashToPoint(nonce, r.Msg, logn)
	s2, err := sign(dsk, hm, stream(shakeOfDRBG(d), func(s *KATStreams) *int64 { return &s.SignBytes }))
	if err != nil {
		return err
	}
	r.SM, err = EncodeSM(logn, nonce, r.Msg, s2)
	if err != nil {
		return fmt.Errorf("falcon: KAT record %d: %w", r.Count, err)
	}
	return nil
}

// shakeOfDRBG returns SHAKE256 of the next 48 DRBG bytes, the random
// stream nist.c gives to key generation and to signing.
func shakeOfDRBG(d *nistdrbg.DRBG) *sha3.SHAKE {
	seed := make([]byte, katSeedSize)
	d.Generate(seed)
	h := sha3.NewSHAKE256()
	h.Write(seed)
	return h
}

// WriteKAT writes a response file for degree 2^logn in the generator's
// format: the header "# Falcon-512" and a blank line, then per record
// count, seed, mlen, msg, pk, sk, smlen, sm and a blank line, byte strings
// in uppercase hex.
func WriteKAT(w io.Writer, logn uint, recs []KATRecord) error {
	name, err := KATName(logn)
	if err != nil {
		return err
	}
	if w == nil {
		return errors.New("falcon: WriteKAT needs a writer")
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n", name)
	for i := range recs {
		r := &recs[i]
		fmt.Fprintf(bw, "count = %d\n", r.Count)
		writeHexField(bw, "seed", r.Seed)
		fmt.Fprintf(bw, "mlen = %d\n", len(r.Msg))
		writeHexField(bw, "msg", r.Msg)
		writeHexField(bw, "pk", r.PK)
		writeHexField(bw, "sk", r.SK)
		fmt.Fprintf(bw, "smlen = %d\n", len(r.SM))
		writeHexField(bw, "sm", r.SM)
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// writeHexField writes "name = HEX"; the generator's fprintBstr writes
// "00" for an empty string.
func writeHexField(w *bufio.Writer, name string, b []byte) {
	w.WriteString(name + " = ")
	if len(b) == 0 {
		w.WriteString("00")
	} else {
		w.WriteString(strings.ToUpper(hex.EncodeToString(b)))
	}
	w.WriteString("\n")
}

// ParseKAT parses a response file and returns its header name (e.g.
// "Falcon-512") and records. Fields may be empty (a request file parses
// too); unknown fields, malformed values and lengths (mlen, smlen) that
// disagree with their byte strings are errors that name the record.
func ParseKAT(data []byte) (string, []KATRecord, error) {
	var (
		name string
		recs []KATRecord
		cur  *KATRecord
		lens []map[string]int // declared mlen/smlen per record
	)
	for lineNo, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if name == "" && recs == nil {
				name = strings.TrimSpace(line[1:])
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return "", nil, fmt.Errorf("KAT line %d: no '=' in %q", lineNo+1, short(line))
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if key == "count" {
			c, err := strconv.Atoi(val)
			if err != nil {
				return "", nil, fmt.Errorf("KAT line %d: bad count %q", lineNo+1, short(val))
			}
			recs = append(recs, KATRecord{Count: c})
			lens = append(lens, map[string]int{})
			cur = &recs[len(recs)-1]
			continue
		}
		if cur == nil {
			return "", nil, fmt.Errorf("KAT line %d: field %q before the first count", lineNo+1, key)
		}
		switch key {
		case "mlen", "smlen":
			if val == "" {
				continue
			}
			v, err := strconv.Atoi(val)
			if err != nil || v < 0 {
				return "", nil, fmt.Errorf("KAT line %d: bad %s %q", lineNo+1, key, short(val))
			}
			lens[len(lens)-1][key] = v
		case "seed", "msg", "pk", "sk", "sm":
			if val == "" {
				continue
			}
			b, err := hex.DecodeString(val)
			if err != nil {
				return "", nil, fmt.Errorf("KAT line %d: %s is not hex: %v", lineNo+1, key, err)
			}
			switch key {
			case "seed":
				cur.Seed = b
			case "msg":
				cur.Msg = b
			case "pk":
				cur.PK = b
			case "sk":
				cur.SK = b
			case "sm":
				cur.SM = b
			}
		default:
			return "", nil, fmt.Errorf("KAT line %d: unknown field %q", lineNo+1, short(key))
		}
	}
	if len(recs) == 0 {
		return "", nil, errors.New("KAT file has no records")
	}
	for i := range recs {
		r := &recs[i]
		for _, f := range []struct {
			key string
			b   *[]byte
		}{{"mlen", &r.Msg}, {"smlen", &r.SM}} {
			v, ok := lens[i][f.key]
			if !ok {
				continue
			}
			// The generator writes an empty string as "00"
			// (fprintBstr), so length 0 with the value 00 is empty.
			if v == 0 && len(*f.b) == 1 && (*f.b)[0] == 0 {
				*f.b = nil
				continue
			}
			if v != len(*f.b) {
				return "", nil, fmt.Errorf("KAT record %d: %s = %d but the value has %d bytes", r.Count, f.key, v, len(*f.b))
			}
		}
	}
	return name, recs, nil
}

// short truncates s for error messages.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// KATMismatch locates the first difference between a generated and a
// reference record.
type KATMismatch struct {
	Record int    // record count
	Field  string // "seed", "msg", "pk", "sk" or "sm"
	Offset int    // byte offset of the first differing byte (or of the end of the shorter value)
}

// CompareKATRecord returns nil if got and want agree in every field, else
// the first difference in file order. A nil record compares as an empty
// one (count 0, every field empty).
func CompareKATRecord(got, want *KATRecord) *KATMismatch {
	if got == nil {
		got = &KATRecord{}
	}
	if want == nil {
		want = &KATRecord{}
	}
	for _, f := range []struct {
		name string
		a, b []byte
	}{{"seed", got.Seed, want.Seed}, {"msg", got.Msg, want.Msg}, {"pk", got.PK, want.PK}, {"sk", got.SK, want.SK}} {
		if off := firstDiff(f.a, f.b); off >= 0 {
			return &KATMismatch{Record: want.Count, Field: f.name, Offset: off}
		}
	}
	if off := firstDiff(got.SM, want.SM); off >= 0 {
		return &KATMismatch{Record: want.Count, Field: "sm", Offset: off}
	}
	return nil
}

// firstDiff returns the first index where a and b differ, or -1 if equal.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return n
	}
	return -1
}
