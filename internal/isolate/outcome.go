package isolate

// An Outcome is how a worker ended.
type Outcome struct {
	// Decided: the worker ended by its own decision, with status Code.
	Decided bool
	Code    int
	// Interrupted: an interrupt ended the worker at once (a second
	// interrupt, as it ends the program).
	Interrupted bool
	// Failure is the line saying how a plugin ended the worker, when
	// neither of the above.
	Failure string
}
