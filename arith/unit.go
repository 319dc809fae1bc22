package arith

// UnitHook, when set, is told each unit of work an analysis starts -- a
// campaign's "signature 17", kat's "record 3" -- and returns the function
// that says it ended. fprlab's plugin worker sets it to note the units on
// its monitor page, so that the line reporting a plugin that ended the
// worker (exit(), a crash, a hang) names the unit it was computing. Set it
// once, before any computation.
var UnitHook func(what string) (done func())

// StartUnit tells UnitHook that the unit what begins; call the returned
// function when it ends.
func StartUnit(what string) (done func()) {
	if UnitHook == nil {
		return func() {}
	}
	return UnitHook(what)
}
