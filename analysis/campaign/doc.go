// Package campaign holds what makes a directory of shadowed measurements
// a campaign: its identity (run.json, the flags and version its results
// depend on), its manifest (what was run, for fprlab report), the rules
// for resuming it, its division into shards (--shard) and the merging of
// the shards into one directory, its parallelism's limits (--workers), the
// layout of a sweep directory, the JSON dump of its records, and the
// Slurm job array of a sharded campaign (its flags and scripts).
//
// It does not measure (package shadow does, and owns the records and
// summaries) and does not print: fprlab's compare, sweep, merge,
// records and campaign commands parse their flags, call it and print.
package campaign
