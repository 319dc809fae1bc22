// Package campaign holds what makes a directory of shadowed measurements
// a campaign: its identity (run.json, the flags and version its results
// depend on), the rules for resuming it, its division into shards and the
// merging of the shards into one directory, the layout of a sweep
// directory, and the Slurm scripts of a sharded campaign.
//
// It does not measure (package shadow does, and owns the records and
// summaries) and does not print: fprlab's compare, sweep, merge and
// campaign commands parse their flags, call it and print.
package campaign
