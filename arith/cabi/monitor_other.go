//go:build !unix

package cabi

import (
	"errors"
	"os"
)

func mapShared(*os.File, int) ([]byte, error) {
	return nil, errors.New("no shared memory on this system")
}

func guardedWords(int) ([]uint64, func()) { return nil, nil }
