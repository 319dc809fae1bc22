package diverge_test

import (
	"testing"

	"github.com/fprlab/fprlab/analysis/diverge"
)

// TestShardRange: the shards' ranges cover the campaign once, in order,
// each within one signature of total/n.
func TestShardRange(t *testing.T) {
	for _, total := range []int{0, 1, 7, 1000, 300000, 1000003} {
		for _, n := range []int{0, 1, 2, 3, 10, 20, 64} {
			next := 0
			shards := max(n, 1)
			for i := range shards {
				from, to := diverge.ShardRange(total, i, n)
				if from != next || to < from || to-from > total/shards+1 {
					t.Fatalf("total %d, shard %d/%d: [%d, %d) after %d", total, i, n, from, to, next)
				}
				next = to
			}
			if next != total {
				t.Errorf("total %d over %d shards: they end at %d", total, n, next)
			}
		}
	}
}
