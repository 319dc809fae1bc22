package shard

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		v    string
		i, n int
		ok   bool
	}{
		{"0/1", 0, 1, true}, {"3/10", 3, 10, true}, {"9/10", 9, 10, true},
		{"10/10", 0, 0, false}, {"-1/4", 0, 0, false}, {"1/0", 0, 0, false}, {"1", 0, 0, false},
		{"a/4", 0, 0, false}, {"1/4/5", 0, 0, false}, {"", 0, 0, false}, {" 1/4", 0, 0, false},
	} {
		i, n, ok := Parse(c.v)
		if i != c.i || n != c.n || ok != c.ok {
			t.Errorf("Parse(%q) = %d, %d, %v; want %d, %d, %v", c.v, i, n, ok, c.i, c.n, c.ok)
		}
	}
	for _, c := range []struct {
		i, n int
		want string
	}{{0, 0, ""}, {0, 1, ""}, {2, 5, "2/5"}} {
		if got := Name(c.i, c.n); got != c.want {
			t.Errorf("Name(%d, %d) = %q, want %q", c.i, c.n, got, c.want)
		} else if got != "" {
			if i, n, ok := Parse(got); !ok || i != c.i || n != c.n {
				t.Errorf("Parse(Name(%d, %d)) = %d, %d, %v", c.i, c.n, i, n, ok)
			}
		}
	}
}
