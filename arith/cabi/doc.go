// Package cabi loads an arithmetic from a shared library that implements
// the C ABI of plugin/fprlab_arith.h, and registers the backend family
// "so:PATH[@CONFIG]": a hardware designer's bit-accurate C model, a C++
// class or a Verilator simulation of the fpr datapath runs Falcon's real
// signing, the exact shadow and every other fprlab command without a line
// of Go.
//
// # Loading without a C compiler
//
// The library is opened with github.com/ebitengine/purego, which
// implements dlopen and the C calling convention in Go and assembly, so
// fprlab still builds and runs with CGO_ENABLED=0 and no C compiler
// installed (`go install` on a machine without gcc; CI builds that way
// once). cgo behind a build tag was the alternative: it would have left
// the default build without plugins, and it is no faster here -- measured
// on this repository's Intel Xeon under load, a call of a C addition took
// 160-200 ns through cgo and 140-250 ns through purego.SyscallN with the
// operands in reused memory (BenchmarkCall measures the latter in place;
// on this repository's AMD EPYC, idle, a bare call of the same C function
// took 82-95 ns through cgo and 84-88 ns through purego).
// Either way a call leaves Go for the C stack (runtime.cgocall), which is
// most of that cost; it is paid once per floating-point operation.
//
// # Values
//
// A plugin's value is an opaque block of up to 32 bytes; fprlab copies it
// and never looks inside, except that a plugin may declare
// FPRLAB_FLAG_BINARY64_LAYOUT (its values are binary64 numbers) so that
// Float64 and Big read them without a call. A plugin whose values take at
// most 8 bytes is a backend over Value8 (Arith8), any other over Value
// (Arith): Falcon's loops and the shadow's pairs copy every value many
// times, and 24 bytes of zeros per copy made a shadowed signature over the
// double plugin about a third slower. The exact decode, fprlab_decode,
// gives sign, exponent and integer significand, and Big and Float64 are
// computed from that, exactly and correctly rounded: the shadow imports
// every value without rounding (through Float64 for formats of at most 53
// bits, through Big beyond).
//
// Calls hand the plugin pointers into a scratch block taken from a
// sync.Pool, so an operation allocates nothing and concurrent runs (fprlab
// compare --workers) never share one; a plugin that is not thread-safe
// declares FPRLAB_FLAG_SERIAL and its calls are serialised by a mutex.
//
// # Batches and programs
//
// That cost is per call, not per value, so the ABI has two kinds of
// optional functions that do more per call. The vector functions
// (fprlab_add_n, ..., fprlab_of_int64_n; vector.go): Arith implements
// arith.Vector with one call per batch of up to 1024 values, the operands
// packed into pooled arrays at the plugin's stride, falling back to one
// scalar call per value for a function the plugin does not export.
// Falcon's polynomial loops batch through it (falcon's fft_batch.go), the
// ffLDL tree of ffSampling level by level (ffsampling_batch.go), and the
// shadow's dd pair passes the batches on. And fprlab_run (program.go): a
// straight-line program of operations (arith.Program) in one call, for
// the chains of dependent operations no batch covers -- each candidate of
// the sampler's rejection loop, the small nodes of ffSampling (whose
// steps falcon traces into programs, ffsampling_trace.go), the final
// roundings; the header's FPRLAB_RUN_FROM_SCALAR defines it from the
// plugin's own scalar functions. Together they take a shadowed Falcon-512
// signature from 284,719 calls to 4,995 (TestCountShadowedSignCalls counts
// them).
//
// # Plan stages
//
// A plugin can compute stages of a precision plan (package arith/plan):
// "plan:ldl=so:./libtrunc.so@40+all=vprec:53". The plan carries its own
// value type across stages; an operand enters the plugin's stage through
// fprlab_from_parts of its exact value -- rounded by the plugin's rule,
// as its hardware would round an operand from a wider datapath -- and
// each result leaves exactly through fprlab_decode, so the plugin's
// fprlab_from_parts must round any significand of up to 256 bits, not
// only its own width (examples/round_binary64.h does it for binary64:
// nearest even, carry, overflow, subnormals). This package registers the "so" family of stage
// formats with package plan (stage.go); plan does the rest, and so does
// not depend on purego.
//
// # Errors and crashes
//
// arith.Arith has no error results: Falcon's code calls an operation and
// uses its value. A status code other than FPRLAB_OK from an operation
// therefore ends the process through Fail (by default: a message naming
// the library, the operation and the code on standard error, exit status
// 2; fprlab's plugin worker ends with its plugin status, 3), before the
// value reaches any record; errors while loading are ordinary errors of
// arith.Lookup. So does a write past any block handed to the plugin: a
// guard word follows each, checked after every call (guard.go), and the
// arrays of batches and programs end at an inaccessible page; a program's
// text is handed over as a copy, compared with the program after the
// call, so that a write into it cannot change the program later calls
// run. The plugin
// runs in the process that loads it; cmd/fprlab runs every command naming
// a plugin in a worker process of its own, which reports on a shared
// monitor page (monitor.go) the function it was in when a plugin ended it
// by exit(), a crash or a hang, so that fprlab reports it in one line and
// keeps every finished campaign unit (cmd/fprlab's TestHostilePlugins).
package cabi
