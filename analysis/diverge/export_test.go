package diverge

// SetChunk sets the signatures between checkpoints for a test.
func SetChunk(n int) (restore func()) {
	old := chunk
	chunk = n
	return func() { chunk = old }
}
