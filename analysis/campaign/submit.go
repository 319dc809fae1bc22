package campaign

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
)

// slurmJobID is what sbatch --parsable prints for a job: its numeric id,
// then ";cluster" on a multi-cluster installation (sbatch(1)).
var slurmJobID = regexp.MustCompile(`^([0-9]+)(;[A-Za-z0-9_.-]+)?$`)

// Submit submits the campaign's scripts with sbatch, the program at path
// sbatch: the shard array, then the merge, which waits for the whole array
// to succeed (--dependency=afterok). It returns both job ids. The array's
// id is read back from sbatch's output and written into the merge's
// --dependency, so it must be a job id: anything else sbatch printed
// (a warning, an empty line) is refused with the output quoted, not passed
// on. A failed sbatch is reported with what it wrote on stderr.
func Submit(ctx context.Context, sbatch, shards, merge string) (arrayID, mergeID string, err error) {
	if arrayID, err = submitOne(ctx, sbatch, shards); err != nil {
		return "", "", err
	}
	if mergeID, err = submitOne(ctx, sbatch, merge, "--dependency=afterok:"+arrayID); err != nil {
		return arrayID, "", fmt.Errorf("%w (the array job %s is submitted: cancel it with scancel %s, or submit %s yourself)", err, arrayID, arrayID, merge)
	}
	return arrayID, mergeID, nil
}

// submitOne runs sbatch --parsable [opts...] script and returns the job id
// it printed.
func submitOne(ctx context.Context, sbatch, script string, opts ...string) (string, error) {
	args := append(append([]string{"--parsable"}, opts...), script)
	out, err := exec.CommandContext(ctx, sbatch, args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(strings.TrimSpace(string(ee.Stderr))) > 0 {
			return "", fmt.Errorf("sbatch %s: %w: %s", script, err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("sbatch %s: %w", script, err)
	}
	line := strings.TrimSpace(string(out))
	m := slurmJobID.FindStringSubmatch(line)
	if m == nil {
		if len(line) > 200 {
			line = line[:200] + "..."
		}
		return "", fmt.Errorf("sbatch %s printed %q, not a job id (sbatch --parsable prints ID or ID;CLUSTER)", script, line)
	}
	return m[1], nil
}
