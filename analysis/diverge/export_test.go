package diverge

// SetChunk sets the signatures between checkpoints for a test.
func SetChunk(n int) (restore func()) {
	old := chunk
	chunk = n
	return func() { chunk = old }
}

// SignIndex signs the campaign's message i with side s as Range does.
func (cp *Campaign) SignIndex(s Side, i int) ([]byte, error) {
	return cp.c.sign(s, cp.sks[i%cp.c.Keys], i, nil)
}
