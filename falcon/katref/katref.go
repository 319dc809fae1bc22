// Package katref holds the published round-3 NIST known-answer response
// files of Falcon-512 and Falcon-1024 (falcon512-KAT.rsp and
// falcon1024-KAT.rsp, 100 records each, as distributed with the round-3
// submission and Falcon-impl-20211101), gzip-compressed, so that programs
// and tests can check regenerated files against them without network or
// file-system access.
package katref

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
)

//go:embed testdata/falcon512-KAT.rsp.gz testdata/falcon1024-KAT.rsp.gz
var files embed.FS

// File describes one published response file.
type File struct {
	LogN    uint
	Name    string // file name as published
	Records int
	Size    int    // bytes, uncompressed
	SHA256  string // hex SHA-256 of the uncompressed file
}

// Files lists the embedded files: Falcon-512 and Falcon-1024.
var Files = []File{
	{LogN: 9, Name: "falcon512-KAT.rsp", Records: 100, Size: 1250115,
		SHA256: "dd75c946fdedef4ec46a2bee7e10c65c9126f1a839b9ced6921fd45f7354b5cd"},
	{LogN: 10, Name: "falcon1024-KAT.rsp", Records: 100, Size: 1757286,
		SHA256: "036a0bf5260573cec44977284dfef756cd1143db9961b981bd1fb55828acb20d"},
}

// Lookup returns the description of the file for degree 2^logn.
func Lookup(logn uint) (File, error) {
	for _, f := range Files {
		if f.LogN == logn {
			return f, nil
		}
	}
	return File{}, fmt.Errorf("katref: no NIST KAT file for degree 2^%d (only Falcon-512 and Falcon-1024)", logn)
}

// Response returns the uncompressed response file for degree 2^logn,
// after checking it against its published SHA-256.
func Response(logn uint) ([]byte, error) {
	f, err := Lookup(logn)
	if err != nil {
		return nil, err
	}
	gz, err := files.ReadFile("testdata/" + f.Name + ".gz")
	if err != nil {
		return nil, fmt.Errorf("katref: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("katref: %s: %w", f.Name, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("katref: %s: %w", f.Name, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != f.SHA256 {
		return nil, fmt.Errorf("katref: embedded %s does not match its published SHA-256", f.Name)
	}
	return data, nil
}
