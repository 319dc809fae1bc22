package accel

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The verify path, bottom up: Falcon verification (crypto_sign_open of the
// reference, vrfy.c) as hash-to-point on a Keccak unit, the NTT-based
// product on an NTT unit, and the norm check with the rest of the
// per-coefficient work, each step priced per operation in software and
// with the accelerators, in cycles and optionally in energy. This is the
// partitioning of Karl, Schupp, Fritzmann and Sigl ("Post-Quantum
// Signatures on RISC-V with Hardware Acceleration", ACM TECS 23(2), 2024:
// Falcon verification reusing NTT and Keccak accelerators, up to 67.5 %
// less energy) and of HORCRUX's Keccak-unit and butterfly instructions
// (BFNTTF/BFINTTF, Table III).
//
// Per verification of degree n = 2^logn the operations are:
//
//	keccak_f1600     permutations of hash-to-point (counted per record:
//	                 absorbing nonce || message and squeezing until n
//	                 coefficients are accepted)
//	ntt_butterfly    2 (n/2) logn: to_ntt_monty of h and the NTT of s2
//	intt_butterfly   (n/2) logn: the iNTT of the product
//	mq_pointwise     3n: h to Montgomery form, the pointwise product, and
//	                 the iNTT's final scaling by 1/n
//	per_coefficient  n: decoding, s1 = c - s2 h, the norm check over 2n
//	                 coefficients and the loop overhead, per coefficient
//
// The butterflies and pointwise products are the reference's mq_montymul
// calls of verify, 3 (n/2) logn + 3n (8,448 at Falcon-512).

// VerifyUnits are the operations of the verify path, in report order.
var VerifyUnits = []string{"keccak_f1600", "ntt_butterfly", "intt_butterfly", "mq_pointwise", "per_coefficient"}

// VerifyCost is one side's cost of a verify-path operation: cycles and,
// optionally, energy in nanojoules.
type VerifyCost struct {
	Cycles   float64  `json:"cycles"`
	EnergyNJ *float64 `json:"energy_nj,omitempty"`
	Source   string   `json:"source"`
}

// VerifyUnitCost is an operation's cost in software and with the
// accelerators.
type VerifyUnitCost struct {
	Software    VerifyCost `json:"software"`
	Accelerated VerifyCost `json:"accelerated"`
}

// VerifyPathTable is the verify-path section of a cost table.
type VerifyPathTable struct {
	Description string                    `json:"description"`
	Units       map[string]VerifyUnitCost `json:"units"`
}

// validate checks a verify-path section: every operation present, finite
// non-negative cycles and energies, and energy given on both sides of
// every operation or on none.
func (v *VerifyPathTable) validate() error {
	for name := range v.Units {
		if !slices.Contains(VerifyUnits, name) {
			return fmt.Errorf("cost table: verify_path.units.%s: unknown operation (the operations are %s)", name, strings.Join(VerifyUnits, ", "))
		}
	}
	energies := 0
	for _, name := range VerifyUnits {
		u, ok := v.Units[name]
		if !ok {
			return fmt.Errorf("cost table: verify_path.units.%s is missing", name)
		}
		for _, c := range []struct {
			side string
			c    VerifyCost
		}{{"software", u.Software}, {"accelerated", u.Accelerated}} {
			if x := c.c.Cycles; math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > 1e9 {
				return fmt.Errorf("cost table: verify_path.units.%s.%s.cycles %v: want cycles per operation from 0 to 1e9", name, c.side, x)
			}
			if e := c.c.EnergyNJ; e != nil {
				if math.IsNaN(*e) || math.IsInf(*e, 0) || *e < 0 || *e > 1e9 {
					return fmt.Errorf("cost table: verify_path.units.%s.%s.energy_nj %v: want nanojoules per operation from 0 to 1e9", name, c.side, *e)
				}
				energies++
			}
		}
	}
	if energies != 0 && energies != 2*len(VerifyUnits) {
		return errors.New("cost table: verify_path: give energy_nj on both sides of every operation, or on none")
	}
	return nil
}

// VerifyOps returns the operations of one verification of degree 2^logn
// with the given hash-to-point permutations, in VerifyUnits order.
func VerifyOps(logn uint, keccak uint64) [5]uint64 {
	n := uint64(1) << logn
	bf := n / 2 * uint64(logn)
	return [5]uint64{keccak, 2 * bf, bf, 3 * n, n}
}

// FNDSAVerifyOps returns the verify-path operations of one FN-DSA
// verification (go-fn-dsa's vrfy.go) of degree 2^logn with keccak
// permutations (the verifying key's digest and hash-to-point): the NTT of
// h and of s2, 2 (n/2) logn butterflies; the inverse NTT, (n/2) logn (it
// halves at each level, with no final scaling by 1/n); 2n pointwise
// products (each product and its correction by R^2; h is not converted to
// Montgomery form); n per coefficient (decoding, s1 = c - s2 h, the norm).
func FNDSAVerifyOps(logn uint, keccak uint64) [5]uint64 {
	n := uint64(1) << logn
	bf := n / 2 * uint64(logn)
	return [5]uint64{keccak, 2 * bf, bf, 2 * n, n}
}

// FNDSA2026VerifyOps is FNDSAVerifyOps for the July 2026 draft
// (rust-fn-dsa 0.4.0's verify_inner): the verifying key holds h in NTT
// form, so only s2 is transformed, (n/2) logn butterflies; the rest is the
// 2025 profile's (keccak: the key digest, mu and hash-to-point).
func FNDSA2026VerifyOps(logn uint, keccak uint64) [5]uint64 {
	n := uint64(1) << logn
	bf := n / 2 * uint64(logn)
	return [5]uint64{keccak, bf, bf, 2 * n, n}
}

// VerifyStep is one operation of the verify path over the records run.
type VerifyStep struct {
	Unit     string  `json:"unit"`
	Mean     float64 `json:"mean"`
	Min      uint64  `json:"min"`
	Max      uint64  `json:"max"`
	SoftK    float64 `json:"software_kcycles"`
	AccelK   float64 `json:"accelerated_kcycles"`
	SoftNJ   float64 `json:"software_nj,omitempty"`
	AccelNJ  float64 `json:"accelerated_nj,omitempty"`
	SoftCyc  float64 `json:"software_cycles_per_op"`
	AccelCyc float64 `json:"accelerated_cycles_per_op"`
}

// VerifyPathReport is the verify path's result for one degree: per
// operation, and in total the mean software and accelerated cycles per
// verification, the speedup, its range over single records, the energy
// and its saving when the table gives energies, and the figures of KAT
// record 0 alone when it was run.
type VerifyPathReport struct {
	Params         int          `json:"params"`
	Records        int          `json:"records"`
	Steps          []VerifyStep `json:"steps"`
	SoftK          float64      `json:"software_kcycles"`
	AccelK         float64      `json:"accelerated_kcycles"`
	Speedup        float64      `json:"speedup"`
	MinSpeedup     float64      `json:"record_speedup_min"`
	MaxSpeedup     float64      `json:"record_speedup_max"`
	HasEnergy      bool         `json:"has_energy"`
	SoftNJ         float64      `json:"software_nj,omitempty"`
	AccelNJ        float64      `json:"accelerated_nj,omitempty"`
	EnergySaving   float64      `json:"energy_saving,omitempty"`
	Record0SoftK   *float64     `json:"record0_software_kcycles,omitempty"`
	Record0AccelK  *float64     `json:"record0_accelerated_kcycles,omitempty"`
	Record0Speedup *float64     `json:"record0_speedup,omitempty"`
	Record0Saving  *float64     `json:"record0_energy_saving,omitempty"`
}

// ModelVerifyPath prices the verify path of degree params with the
// hash-to-point permutations of each record (keccak[i] for records[i]).
func ModelVerifyPath(v *VerifyPathTable, params int, records []int, keccak []uint64) (*VerifyPathReport, error) {
	return ModelVerifyPathOps(v, params, records, keccak, VerifyOps)
}

// ModelVerifyPathOps prices the verify path of degree params with the
// operations opsOf(logn, keccak[i]) of each record (VerifyOps for round 3,
// FNDSAVerifyOps for FN-DSA).
func ModelVerifyPathOps(v *VerifyPathTable, params int, records []int, keccak []uint64, opsOf func(logn uint, keccak uint64) [5]uint64) (*VerifyPathReport, error) {
	logn := uint(0)
	switch params {
	case 512:
		logn = 9
	case 1024:
		logn = 10
	default:
		return nil, fmt.Errorf("accel: verify path of degree %d: the degrees are 512 and 1024", params)
	}
	if len(keccak) == 0 || len(keccak) != len(records) {
		return nil, fmt.Errorf("accel: %d permutation counts for %d records", len(keccak), len(records))
	}
	rep := &VerifyPathReport{Params: params, Records: len(records), HasEnergy: v.Units["keccak_f1600"].Software.EnergyNJ != nil,
		MinSpeedup: math.Inf(1), MaxSpeedup: math.Inf(-1)}
	// price returns the software and accelerated cycles and energies of
	// one verification's operations.
	price := func(ops [5]uint64) (sc, ac, se, ae float64) {
		for i, name := range VerifyUnits {
			u, n := v.Units[name], float64(ops[i])
			sc += n * u.Software.Cycles
			ac += n * u.Accelerated.Cycles
			if rep.HasEnergy {
				se += n * *u.Software.EnergyNJ
				ae += n * *u.Accelerated.EnergyNJ
			}
		}
		return
	}
	steps := make([]VerifyStep, len(VerifyUnits))
	for i, name := range VerifyUnits {
		u := v.Units[name]
		steps[i] = VerifyStep{Unit: name, Min: math.MaxUint64, SoftCyc: u.Software.Cycles, AccelCyc: u.Accelerated.Cycles}
	}
	for r, k := range keccak {
		ops := opsOf(logn, k)
		for i := range steps {
			steps[i].Mean += float64(ops[i])
			steps[i].Min, steps[i].Max = min(steps[i].Min, ops[i]), max(steps[i].Max, ops[i])
		}
		sc, ac, se, ae := price(ops)
		s := sc / ac
		rep.MinSpeedup, rep.MaxSpeedup = min(rep.MinSpeedup, s), max(rep.MaxSpeedup, s)
		if records[r] == 0 {
			sk, ak := sc/1e3, ac/1e3
			rep.Record0SoftK, rep.Record0AccelK, rep.Record0Speedup = &sk, &ak, &s
			if rep.HasEnergy {
				x := 1 - ae/se
				rep.Record0Saving = &x
			}
		}
	}
	for i, name := range VerifyUnits {
		u := v.Units[name]
		st := &steps[i]
		st.Mean /= float64(len(keccak))
		st.SoftK, st.AccelK = st.Mean*u.Software.Cycles/1e3, st.Mean*u.Accelerated.Cycles/1e3
		rep.SoftK += st.SoftK
		rep.AccelK += st.AccelK
		if rep.HasEnergy {
			st.SoftNJ, st.AccelNJ = st.Mean**u.Software.EnergyNJ, st.Mean**u.Accelerated.EnergyNJ
			rep.SoftNJ += st.SoftNJ
			rep.AccelNJ += st.AccelNJ
		}
	}
	rep.Steps = steps
	if !(rep.AccelK > 0) {
		return nil, errors.New("accel: the verify path's accelerated costs are all zero: no speedup to give")
	}
	rep.Speedup = rep.SoftK / rep.AccelK
	if rep.HasEnergy && rep.SoftNJ > 0 {
		rep.EnergySaving = 1 - rep.AccelNJ/rep.SoftNJ
	}
	return rep, nil
}
