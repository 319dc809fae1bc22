package falcon_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"fmt"
	"log"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	_ "github.com/fprlab/fprlab/valuetype" // links every backend and instantiates Falcon for its value type
)

// Example looks up a backend by name and signs with it as the NIST KAT
// flow does: record 0 of Falcon-512 (its DRBG seed and message), key
// generation and signing over integer-emulated binary64. The figures are
// those of the published falcon512-KAT.rsp: a 897-byte public key, a
// 691-byte signed message whose SHA-256 begins 678f1e9f7b458b00.
func Example() {
	b, err := arith.Lookup("emu64")
	if err != nil {
		log.Fatal(err)
	}
	rec, err := falcon.KATRequest(0)
	if err != nil {
		log.Fatal(err)
	}
	if err := falcon.GenerateKAT(9, &rec, falcon.KATOptions{Keygen: b}); err != nil {
		log.Fatal(err)
	}
	sum := sha256.Sum256(rec.SM)
	fmt.Printf("%s: pk %d bytes, sm %d bytes, sha256(sm) %x...\n", b.Name, len(rec.PK), len(rec.SM), sum[:8])

	// The published record, and the signed message opened with the key.
	rsp, err := katref.Response(9)
	if err != nil {
		log.Fatal(err)
	}
	_, published, err := falcon.ParseKAT(rsp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("equal to the published record:", bytes.Equal(rec.PK, published[0].PK) &&
		bytes.Equal(rec.SK, published[0].SK) && bytes.Equal(rec.SM, published[0].SM))
	pk, err := falcon.DecodePublicKey(rec.PK)
	if err != nil {
		log.Fatal(err)
	}
	msg, err := falcon.OpenSM(pk, rec.SM)
	fmt.Printf("opens: %d-byte message, error %v\n", len(msg), err)
	// Output:
	// emu64: pk 897 bytes, sm 691 bytes, sha256(sm) 678f1e9f7b458b00...
	// equal to the published record: true
	// opens: 33-byte message, error <nil>
}

// Example_sign generates a Falcon-512 key over hardware binary64 and signs
// in the padded format, whose length the specification fixes: 666 bytes at
// Falcon-512 (falcon.h's FALCON_SIG_PADDED_SIZE(9)).
func Example_sign() {
	b, err := arith.Lookup("native")
	if err != nil {
		log.Fatal(err)
	}
	// A reproducible stream of random bytes, for the example only: real
	// keys and signatures take crypto/rand.
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("fprlab example"))
	sk, pk, err := falcon.Keygen(b, 9, rng)
	if err != nil {
		log.Fatal(err)
	}
	msg := []byte("a message")
	sig, err := falcon.Sign(b, sk, msg, falcon.Padded, rng)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("padded signature: %d bytes, verify: %v\n", len(sig), falcon.Verify(pk, msg, sig))
	fmt.Println("another message:", falcon.Verify(pk, []byte("another message"), sig) != nil)
	// Output:
	// padded signature: 666 bytes, verify: <nil>
	// another message: true
}
