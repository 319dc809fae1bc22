package accel

// Counter is the capability (in the sense of package scheme's optional
// interfaces) of a signature scheme other than round 3 whose signing and
// verification accel counts counts and whose verify path accel cycles
// prices. Round 3's counts are the NIST KAT flow's (CountKATRecord,
// CountKATPhases) and need no Counter; a scheme with neither is refused
// by those commands. Implementations: scheme/fndsa2025.
type Counter interface {
	// KATSource names the implementation whose known-answer test the
	// scheme's own records are, as "go-fn-dsa".
	KATSource() string
	// KATRecordsPerDegree is the number of those records of each degree
	// (j = 0 to KATRecordsPerDegree()-1).
	KATRecordsPerDegree() int
	// CountKAT counts record j of the scheme's own test at degree
	// 2^logn, signed with the scheme's own keys; a count whose keys or
	// signature are not the record's is refused (its numbers would
	// describe another computation).
	CountKAT(logn uint, j int) (*FNDSACounts, error)
	// CountRound3Keys counts the scheme's signature made with the keys,
	// seed and message of round-3 NIST KAT record r (the record's flow
	// checked against the published file), beside that flow's counts.
	CountRound3Keys(logn uint, r int) (*FNDSACounts, error)
	// VerifyOps is the verify-path operations of one verification at
	// degree 2^logn with keccak permutations (ModelVerifyPathOps).
	VerifyOps(logn uint, keccak uint64) [5]uint64
	// CountsNotes are the notes of accel counts: of the scheme's own
	// keys, or with round3Keys of a NIST record's keys.
	CountsNotes(round3Keys bool) []string
	// CyclesNotes are the notes of accel cycles' verify path.
	CyclesNotes() []string
}
