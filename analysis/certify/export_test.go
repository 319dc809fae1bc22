package certify

// NodeNorms exposes the norm bounds of r's inner nodes to the external
// tests: level, iter (1: t1, 0: t0), and the bounds on |t|, |z|, |t - z|.
func (r *Result) NodeNorms() (level, iter []int, t, z, d []float64) {
	for _, n := range r.norms {
		level, iter = append(level, n.L), append(iter, n.iter)
		t, z, d = append(t, n.t), append(z, n.z), append(d, n.d)
	}
	return level, iter, t, z, d
}

// WithLeafDeviation returns o with the bound on |mu_B - z| at every
// sampler call replaced by dev (instead of the sampler's support, 19).
func WithLeafDeviation(o Options, dev float64) Options {
	o.leafDev = dev
	return o
}
