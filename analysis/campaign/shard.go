package campaign

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/internal/shard"
)

// A campaign split over N processes (compare --shard I/N) gives unit i --
// a signature, or a KAT record -- to shard i mod N; a sweep gives format i
// to shard i mod N. Each shard writes its own directory; Merge and
// MergeSweep unite them.

// ParseShard reads a shard flag's value (compare, sweep and diverge
// --shard): "I/N" for shard I of N, 0 <= I < N, or "slurm" for the Slurm
// job array's task, SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT, read
// with getenv (os.Getenv), so that one array submitted at once shards a
// campaign with no per-task arguments. "" is no sharding: 0, 0. The rules
// live here, beside the shards' ownership (shadow.Config.Owns) and
// CheckShards, which reads the same "I/N" back from the shards' run.json.
func ParseShard(v string, getenv func(string) string) (i, n int, err error) {
	if v == "" {
		return 0, 0, nil
	}
	if v == "slurm" {
		id, count := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT")
		if id == "" || count == "" {
			return 0, 0, errors.New("--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set (not in a Slurm job array?)")
		}
		v = id + "/" + count
	}
	i, n, ok := shard.Parse(v)
	if !ok {
		return 0, 0, fmt.Errorf("--shard %q: want I/N with 0 <= I < N", v)
	}
	return i, n, nil
}

// EmptyShard describes a shard that owns no unit of its campaign (more
// shards than signatures), "" otherwise. Such a shard still runs -- its
// directory, empty of records, is what merge expects of every shard -- but
// has no statistic to print.
func EmptyShard(cfg shadow.Config) string {
	if cfg.Shards <= 1 {
		return ""
	}
	units, what := cfg.Signatures, "signatures"
	first := 0
	if cfg.KATMode() {
		units, what, first = cfg.KATTo-cfg.KATFrom, "KAT records", cfg.KATFrom
	}
	for i := first; i < first+units; i++ {
		if cfg.Owns(i) {
			return ""
		}
	}
	return fmt.Sprintf("shard %d/%d holds no unit of this campaign: its %d %s go to the shards of their index modulo %d, none to shard %d (nothing to measure; merge accepts the empty shard)",
		cfg.Shard, cfg.Shards, units, what, cfg.Shards, cfg.Shard)
}

// CheckShards checks that the shard strings "I/N" of dirs cover 0..N-1
// once each, and returns N.
func CheckShards(dirs, shards []string) (int, error) {
	n := -1
	seen := map[int][]string{}
	for i, sh := range shards {
		var si, sn int
		if _, err := fmt.Sscanf(sh, "%d/%d", &si, &sn); err != nil {
			return 0, fmt.Errorf("%s is not a shard (no --shard I/N in its run.json)", dirs[i])
		}
		if n >= 0 && sn != n {
			return 0, fmt.Errorf("%s is a shard of %d, %s of %d", dirs[i], sn, dirs[0], n)
		}
		n = sn
		seen[si] = append(seen[si], dirs[i])
	}
	var missing, dup []string
	for i := range n {
		switch len(seen[i]) {
		case 0:
			missing = append(missing, strconv.Itoa(i))
		case 1:
		default:
			dup = append(dup, fmt.Sprintf("%d (%s)", i, strings.Join(seen[i], ", ")))
		}
	}
	if len(dup) > 0 {
		return 0, fmt.Errorf("shards given twice: %s", strings.Join(dup, "; "))
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("missing shards of %d: %s", n, strings.Join(missing, ", "))
	}
	return n, nil
}

// CheckComplete reports signatures of the campaign that no shard
// recorded.
func CheckComplete(cfg shadow.Config, have *shadow.UnitSet) error {
	var want []int
	if cfg.KATMode() {
		for i := cfg.KATFrom; i < cfg.KATTo; i++ {
			want = append(want, i)
		}
	} else {
		for i := range cfg.Signatures {
			want = append(want, i)
		}
	}
	var miss []string
	for _, i := range want {
		if !have.Has(i) {
			miss = append(miss, strconv.Itoa(i))
		}
	}
	if len(miss) > 0 {
		if len(miss) > 10 {
			miss = append(miss[:10], "...")
		}
		return fmt.Errorf("%d signatures missing (a shard did not finish: rerun it with the same command): %s", len(miss), strings.Join(miss, ", "))
	}
	return nil
}

// ParseKATRecords reads a --kat-records range FROM:TO of the NIST KAT's
// 100 records, TO excluded.
func ParseKATRecords(v string) (from, to int, err error) {
	a, b, ok := strings.Cut(v, ":")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || from < 0 || to > 100 || from >= to {
		return 0, 0, fmt.Errorf("--kat-records %q: want FROM:TO with 0 <= FROM < TO <= 100", v)
	}
	return from, to, nil
}
