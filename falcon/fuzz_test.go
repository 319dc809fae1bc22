package falcon

import (
	"bytes"
	"errors"
	"testing"
)

// Fuzz targets for every decoder and for verification. Each asserts that
// nothing panics, that every rejection is reported as a malformed encoding
// (or, for verification, as an invalid signature), and that whatever
// decodes re-encodes to exactly the input: the encodings are canonical.
// The seed corpus in testdata/fuzz holds valid encodings of several
// degrees and a few malformed ones.

func FuzzDecodePublicKey(f *testing.F) {
	f.Add([]byte{0x01, 0x00, 0x04, 0x00, 0x20})
	f.Fuzz(func(t *testing.T, b []byte) {
		pk, err := DecodePublicKey(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error does not wrap ErrMalformed: %v", err)
			}
			return
		}
		if re := pk.Encode(); !bytes.Equal(re, b) {
			t.Fatalf("re-encoding differs:\n in %x\nout %x", b, re)
		}
	})
}

func FuzzDecodePrivateKey(f *testing.F) {
	f.Add([]byte{0x51, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		sk, err := DecodePrivateKey(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error does not wrap ErrMalformed: %v", err)
			}
			return
		}
		if re := sk.Encode(); !bytes.Equal(re, b) {
			t.Fatalf("re-encoding differs:\n in %x\nout %x", b, re)
		}
		if len(sk.BigG) != 1<<sk.LogN {
			t.Fatalf("G has %d coefficients", len(sk.BigG))
		}
		// A key that decodes has an invertible f, so it has a public key.
		if _, err := sk.Public(); err != nil {
			t.Fatalf("decoded key has no public key: %v", err)
		}
	})
}

func FuzzDecodeSignature(f *testing.F) {
	f.Add(append(append([]byte{0x32}, make([]byte, NonceSize)...), 0x01, 0xc0, 0xc0, 0x1f, 0xf0, 0x00, 0x10))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeSignature(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error does not wrap ErrMalformed: %v", err)
			}
			return
		}
		if (s.Format == Padded) != (len(b) == mustParams(s.LogN).SigPaddedSize && b[0]&0xF0 == headerCompressed) {
			t.Fatalf("format %v for a %d-byte signature", s.Format, len(b))
		}
		re, err := s.Encode()
		if err != nil || !bytes.Equal(re, b) {
			t.Fatalf("re-encoding differs (%v):\n in %x\nout %x", err, b, re)
		}
	})
}

// FuzzVerify takes a public key, a message and a signature. It also feeds
// the signature bytes to OpenSM as a NIST signed message.
func FuzzVerify(f *testing.F) {
	f.Add([]byte{0x01, 0x00, 0x04, 0x00, 0x20}, []byte("m"), []byte{0x31})
	f.Fuzz(func(t *testing.T, pkb, msg, sig []byte) {
		pk, err := DecodePublicKey(pkb)
		if err != nil {
			return
		}
		if !bytes.Equal(pk.Encode(), pkb) {
			t.Fatalf("public key re-encoding differs")
		}
		err = Verify(pk, msg, sig)
		if err != nil && !errors.Is(err, ErrInvalidSignature) && !errors.Is(err, ErrMalformed) {
			t.Fatalf("error is neither invalid nor malformed: %v", err)
		}
		s, derr := DecodeSignature(sig)
		if (derr != nil) != errors.Is(err, ErrMalformed) {
			t.Fatalf("Verify error %v, DecodeSignature error %v", err, derr)
		}
		if err == nil {
			re, rerr := s.Encode()
			if s.LogN != pk.LogN || rerr != nil || !bytes.Equal(re, sig) {
				t.Fatalf("accepted signature does not re-encode")
			}
			// The same (nonce, s2) must verify in every format it fits.
			for _, f := range []SigFormat{Compressed, Padded, CT} {
				if b, err := EncodeSignature(f, s.LogN, s.Nonce, s.S2); err == nil {
					if err := Verify(pk, msg, b); err != nil {
						t.Fatalf("%v re-encoding rejected: %v", f, err)
					}
				}
			}
		}
		got, err := OpenSM(pk, sig)
		if err != nil && !errors.Is(err, ErrInvalidSignature) && !errors.Is(err, ErrMalformed) {
			t.Fatalf("OpenSM error is neither invalid nor malformed: %v", err)
		}
		if err == nil && !bytes.Contains(sig, got) {
			t.Fatalf("OpenSM returned a message not inside sm")
		}
	})
}
