package cabi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"structs"
	"sync"
	"unsafe"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// ABIVersion is the version of plugin/fprlab_arith.h this package speaks
// (FPRLAB_ARITH_ABI_VERSION); a library of another version is refused.
const ABIVersion = 1

// Flags of fprlab_info.flags.
const (
	flagBinary64Constants = 1 << 0
	flagBinary64Layout    = 1 << 1
	flagSerial            = 1 << 2
	knownFlags            = flagBinary64Constants | flagBinary64Layout | flagSerial
)

// Status codes (enum fprlab_status).
const (
	statusOK          = 0
	statusUnsupported = 4
)

var statusNames = map[int32]string{
	1: "FPRLAB_ERR_RANGE: a value the format cannot represent",
	2: "FPRLAB_ERR_DOMAIN: an operation undefined on its operands",
	3: "FPRLAB_ERR_CONFIG: a configuration the plugin does not accept",
	4: "FPRLAB_ERR_UNSUPPORTED: an optional function declining this argument",
	5: "FPRLAB_ERR_INTERNAL: a failure inside the plugin",
}

// OpError is a status code other than FPRLAB_OK returned by a plugin.
type OpError struct {
	Backend string // "so:PATH[@CONFIG]"
	Op      string // the function, without "fprlab_"
	Code    int32
	// Of a vector function (Op "add_n", ...): the length of the batch,
	// and the element that failed (-1 when the scalar function, called on
	// each element to find it, failed on none).
	Len, Element int
	// Of fprlab_run (Op "run"): the instruction that failed, as the
	// plugin reported it (its index in the program, and its operation).
	Insn   int
	InsnOp string
}

func (e *OpError) Error() string {
	what, ok := statusNames[e.Code]
	if !ok {
		what = "not a status of fprlab_arith.h"
	}
	return fmt.Sprintf("backend %s: fprlab_%s returned %d (%s)%s", e.Backend, e.Op, e.Code, what, e.vecMessage()+e.runMessage())
}

// Fail is called with the *OpError of an operation that failed inside a
// plugin, where arith.Arith offers no way to return it. The default
// prints it and ends the process with status 2 (the run stops before its
// result is recorded; --out campaigns resume). Tests replace it; if it
// returns, the operation returns a zero Value.
var Fail = func(err error) {
	fmt.Fprintln(os.Stderr, "fprlab:", err)
	os.Exit(2)
}

// cInfo is struct fprlab_info.
type cInfo struct {
	_               structs.HostLayout
	valueSize       uint32
	significandBits uint32
	exponentBits    uint32
	flags           uint32
	name            [64]byte
	description     [192]byte
}

// info is what a plugin reported, checked.
type info struct {
	valueSize, bits, expBits, flags uint32
	name, description               string
}

// lib is one loaded configuration of a plugin.
type lib struct {
	label    string // the backend name, for messages
	slot     int    // its slot of the monitor page (monitor.go)
	path     string // absolute path of the library
	ctx      uintptr
	fn       [opRun + 1]uintptr // scalar functions, the vector ones, fprlab_run (0: not exported)
	info     info
	layout64 bool
	serial   bool
	mu       sync.Mutex // serialises calls under FPRLAB_FLAG_SERIAL
	pool     sync.Pool  // *scratch
	vpool    sync.Pool  // *vscratch
	rpool    sync.Pool  // *rscratch
	consts   [arith.NumConstants]Value
	gm       [2048]Value
	expm     []Value // the reference polynomial's coefficients, without fprlab_expm_p63
}

// scratch is the memory one call hands the plugin: operands, result and
// a decode, and the argument lists pointing at them (set once: the block
// is on the heap, which does not move, and stays reachable through the
// call). Each block is followed by a guard word (guard.go).
type scratch struct {
	x        Value
	gx       uint64
	y        Value
	gy       uint64
	out      Value
	gout     uint64
	p        parts
	gp       uint64
	args2    [4]uintptr // ctx, &x, &y, &out
	args1    [3]uintptr // ctx, &x, &out
	argsDec  [3]uintptr // ctx, &x, &p
	argsFrom [3]uintptr // ctx, &p, &out
	argsInt  [4]uintptr // ctx, i, e, &out
	argsInt3 [3]uintptr // ctx, i, &out
}

func (l *lib) get() *scratch {
	if s, ok := l.pool.Get().(*scratch); ok {
		return s
	}
	s := new(scratch)
	s.setGuards()
	x, y, out, p := uintptr(unsafe.Pointer(&s.x)), uintptr(unsafe.Pointer(&s.y)), uintptr(unsafe.Pointer(&s.out)), uintptr(unsafe.Pointer(&s.p))
	s.args2 = [4]uintptr{l.ctx, x, y, out}
	s.args1 = [3]uintptr{l.ctx, x, out}
	s.argsDec = [3]uintptr{l.ctx, x, p}
	s.argsFrom = [3]uintptr{l.ctx, p, out}
	s.argsInt = [4]uintptr{l.ctx, 0, 0, out}
	s.argsInt3 = [3]uintptr{l.ctx, 0, out}
	return s
}

// countCall, when set (by tests, set and cleared while no call runs), is
// called with the op of every call into a plugin: the benchmarks count
// the calls of a signature rather than estimating them.
var countCall func(op int)

// invoke calls function op with args (pointing into s) and returns its status.
func (l *lib) invoke(op int, args []uintptr) int32 {
	if countCall != nil {
		countCall(op)
	}
	if l.serial {
		l.mu.Lock()
		defer l.mu.Unlock()
	}
	if m := monitor; m != nil {
		monEnter(m, l.slot, op)
		r := syscall(l.fn[op], args)
		monLeave(m)
		return int32(uint32(r))
	}
	r := syscall(l.fn[op], args)
	return int32(uint32(r))
}

// result returns s's result and s to the pool, with the call's status;
// a call that wrote past a block of s is an *OverrunError, and s is
// dropped.
func (l *lib) result(op int, s *scratch, st int32) (Value, error) {
	if err := l.checkGuards(op, s); err != nil {
		return Value{}, err
	}
	out := s.out
	l.pool.Put(s)
	if st != statusOK {
		return Value{}, &OpError{Backend: l.label, Op: opNames[op], Code: st}
	}
	return out, nil
}

// must is v, or the zero Value after reporting err through Fail.
func must(v Value, err error) Value {
	if err != nil {
		Fail(err)
		return Value{}
	}
	return v
}

func (l *lib) call2(op int, x, y Value) (Value, error) {
	s := l.get()
	s.x, s.y, s.out = x, y, Value{}
	return l.result(op, s, l.invoke(op, s.args2[:]))
}

func (l *lib) call1(op int, x Value) (Value, error) {
	s := l.get()
	s.x, s.out = x, Value{}
	return l.result(op, s, l.invoke(op, s.args1[:]))
}

// callInt calls op(ctx, i, e, out); n is 3 for op(ctx, i, out).
func (l *lib) callInt(op int, n int, i, e uint64) (Value, error) {
	s := l.get()
	s.out = Value{}
	s.argsInt[1], s.argsInt[2] = uintptr(i), uintptr(e)
	args := s.argsInt[:]
	if n == 3 {
		s.argsInt3[1] = uintptr(i)
		args = s.argsInt3[:]
	}
	return l.result(op, s, l.invoke(op, args))
}

func (l *lib) fromParts(p parts) (Value, error) {
	s := l.get()
	s.p, s.out = p, Value{}
	return l.result(opFromParts, s, l.invoke(opFromParts, s.argsFrom[:]))
}

// decode returns the exact value of x (from the layout under
// FPRLAB_FLAG_BINARY64_LAYOUT).
func (l *lib) decode(x Value) parts {
	if l.layout64 {
		return float64Parts(math.Float64frombits(x.w[0]))
	}
	p, err := l.decodeCall(x)
	if err != nil {
		Fail(err)
		return parts{kind: kindNaN}
	}
	return p
}

// decodeCall is fprlab_decode, checked.
func (l *lib) decodeCall(x Value) (parts, error) {
	s := l.get()
	s.x, s.p = x, parts{}
	st := l.invoke(opDecode, s.argsDec[:])
	if err := l.checkGuards(opDecode, s); err != nil {
		return parts{kind: kindNaN}, err
	}
	p := s.p
	l.pool.Put(s)
	if st != statusOK {
		return p, &OpError{Backend: l.label, Op: "decode", Code: st}
	}
	if err := p.check(); err != nil {
		return p, fmt.Errorf("backend %s: fprlab_decode %v", l.label, err)
	}
	return p, nil
}

// loaded caches the configurations loaded so far by path and config: a
// library's fprlab_init runs once per configuration in a process.
var loaded struct {
	sync.Mutex
	m map[string]*lib
}

// splitArg splits "PATH[@CONFIG]" at the last '@' after the last '/'.
func splitArg(arg string) (path, config string) {
	if at := strings.LastIndex(arg, "@"); at > strings.LastIndex(arg, "/") {
		return arg[:at], arg[at+1:]
	}
	return arg, ""
}

// LibraryDigest returns the hex SHA-256 of the library file of arg,
// "PATH[@CONFIG]" as Open takes it, as the file is now: what a campaign
// directory records so that a library rebuilt or replaced since is not
// taken for the arithmetic its records measured.
func LibraryDigest(arg string) (string, error) {
	path, _ := splitArg(arg)
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("plugin library: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("plugin library %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Open loads the plugin named by arg, "PATH[@CONFIG]" (the text after
// "so:" of a backend name), or returns the configuration loaded before.
func Open(arg string) (Arith, error) {
	path, config := splitArg(arg)
	if path == "" {
		return Arith{}, errors.New("no library: write so:PATH or so:PATH@CONFIG")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Arith{}, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return Arith{}, fmt.Errorf("plugin library: %w", err)
	} else if !fi.Mode().IsRegular() {
		return Arith{}, fmt.Errorf("plugin library %s is not a regular file", path)
	}
	if strings.IndexByte(config, 0) >= 0 {
		return Arith{}, errors.New("plugin configuration contains a NUL byte")
	}
	key := abs + "\x00" + config
	loaded.Lock()
	defer loaded.Unlock()
	if l := loaded.m[key]; l != nil {
		return Arith{l}, nil
	}
	l, err := load("so:"+arg, abs, config)
	if err != nil {
		return Arith{}, err
	}
	if loaded.m == nil {
		loaded.m = map[string]*lib{}
	}
	loaded.m[key] = l
	return Arith{l}, nil
}

// load opens the library at abs, checks its version, resolves its
// functions, runs fprlab_init with config and computes the tables.
func load(label, abs, config string) (*lib, error) {
	h, err := dlopen(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot load %s: %w", abs, err)
	}
	ver, err := dlsym(h, "fprlab_abi_version")
	if err != nil {
		return nil, fmt.Errorf("%s is not an fprlab arithmetic plugin: it exports no fprlab_abi_version (see plugin/fprlab_arith.h)", abs)
	}
	if v := uint32(syscall(ver, nil)); v != ABIVersion {
		return nil, fmt.Errorf("%s implements version %d of the fprlab arithmetic ABI; this fprlab speaks version %d: rebuild it against this fprlab's plugin/fprlab_arith.h", abs, v, ABIVersion)
	}
	l := &lib{label: label, path: abs, slot: registerSlot(label)}
	var missing []string
	for op := range numOps {
		f, err := dlsym(h, "fprlab_"+opNames[op])
		if err != nil {
			if op < numRequired {
				missing = append(missing, "fprlab_"+opNames[op])
			}
			continue
		}
		l.fn[op] = f
	}
	for op := range numVec {
		if f, err := dlsym(h, "fprlab_"+vecNames[op]); err == nil {
			l.fn[numOps+op] = f
		}
	}
	if f, err := dlsym(h, "fprlab_run"); err == nil {
		l.fn[opRun] = f
	}
	initFn, err := dlsym(h, "fprlab_init")
	if err != nil {
		missing = append([]string{"fprlab_init"}, missing...)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s lacks required functions of fprlab_arith.h: %s", abs, strings.Join(missing, ", "))
	}
	// What fprlab_init fills, each followed by a guard word (guard.go).
	ci := &struct {
		cInfo
		g uint64
	}{g: canary}
	ctx := &struct {
		p uintptr
		g uint64
	}{g: canary}
	cfg := append([]byte(config), 0)
	if m := monitor; m != nil {
		monEnter(m, l.slot, opInit)
	}
	st := int32(uint32(syscall(initFn, []uintptr{uintptr(unsafe.Pointer(&cfg[0])), uintptr(unsafe.Pointer(&ci.cInfo)), uintptr(unsafe.Pointer(&ctx.p))})))
	if m := monitor; m != nil {
		monLeave(m)
	}
	switch {
	case ci.g != canary:
		return nil, unnamed(label, &OverrunError{Backend: label, Op: "init", Block: "struct fprlab_info"})
	case ctx.g != canary:
		return nil, unnamed(label, &OverrunError{Backend: label, Op: "init", Block: "context pointer"})
	}
	if st != statusOK {
		return nil, fmt.Errorf("%w for the configuration %q", unnamed(label, &OpError{Backend: label, Op: "init", Code: st}), config)
	}
	l.ctx = ctx.p
	if l.info, err = checkInfo(&ci.cInfo); err != nil {
		return nil, fmt.Errorf("%s: fprlab_init: %w", abs, err)
	}
	l.layout64 = l.info.flags&flagBinary64Layout != 0
	l.serial = l.info.flags&flagSerial != 0
	if err := l.loadTables(); err != nil {
		return nil, unnamed(label, err)
	}
	if err := l.selfCheck(); err != nil {
		return nil, unnamed(label, err)
	}
	return l, nil
}

// unnamed is err without the "backend LABEL: " that the errors of a
// plugin's calls begin with (they name it for the messages of a run): a
// load error reaches the user through arith.Lookup, whose message names
// the backend, so that it is named once. The error still unwraps to err.
func unnamed(label string, err error) error {
	msg, ok := strings.CutPrefix(err.Error(), "backend "+label+": ")
	if !ok {
		return err
	}
	return &loadError{msg, err}
}

type loadError struct {
	msg string
	err error
}

func (e *loadError) Error() string { return e.msg }
func (e *loadError) Unwrap() error { return e.err }

// checkInfo validates what fprlab_init reported.
func checkInfo(ci *cInfo) (info, error) {
	str := func(b []byte, what string) (string, error) {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return "", fmt.Errorf("%s is not NUL-terminated", what)
		}
		return string(b[:i]), nil
	}
	in := info{valueSize: ci.valueSize, bits: ci.significandBits, expBits: ci.exponentBits, flags: ci.flags}
	var err error
	if in.name, err = str(ci.name[:], "name"); err != nil {
		return in, err
	}
	if in.description, err = str(ci.description[:], "description"); err != nil {
		return in, err
	}
	switch {
	case in.name == "":
		return in, errors.New("empty name")
	case in.valueSize < 1 || in.valueSize > MaxValueSize:
		return in, fmt.Errorf("value_size %d out of range 1..%d", in.valueSize, MaxValueSize)
	case in.bits < 2 || in.bits > 256:
		return in, fmt.Errorf("significand_bits %d out of range 2..256", in.bits)
	case in.expBits > 31:
		return in, fmt.Errorf("exponent_bits %d out of range 0..31", in.expBits)
	case in.flags&^knownFlags != 0:
		return in, fmt.Errorf("unknown flags %#x", in.flags&^knownFlags)
	case in.flags&flagBinary64Layout != 0 && (in.valueSize < 8 || in.bits > 53):
		return in, errors.New("FPRLAB_FLAG_BINARY64_LAYOUT needs value_size >= 8 and significand_bits <= 53")
	}
	return in, nil
}

// loadTables fills the constants, twiddles and (without
// fprlab_expm_p63) the reference polynomial's coefficients: the plugin's
// own where fprlab_constant and fprlab_gm supply them, else the
// reference's binary64 values (FPRLAB_FLAG_BINARY64_CONSTANTS), else the
// values the vprec:P formats use, correctly rounded at P bits (package
// oracle's tables), imported exactly.
func (l *lib) loadTables() error {
	b64 := l.info.flags&flagBinary64Constants != 0
	var ref oracle.Arith
	if !b64 {
		var err error
		if ref, err = oracle.NewVirtual(uint(l.info.bits)); err != nil {
			return fmt.Errorf("fprlab rounds constants to %d..%d bits, not %d: set FPRLAB_FLAG_BINARY64_CONSTANTS or export fprlab_constant and fprlab_gm", oracle.MinVPrec, oracle.MaxVPrec, l.info.bits)
		}
	}
	imp := func(f64 float64, exact func() *big.Float) (Value, error) {
		if b64 {
			return l.fromFloat64(f64)
		}
		p, ok := bigParts(exact())
		if !ok {
			return Value{}, errors.New("a constant needs more than 256 bits")
		}
		return l.fromParts(p)
	}
	own := func(op int, k int) (Value, bool, error) {
		if l.fn[op] == 0 {
			return Value{}, false, nil
		}
		v, err := l.callInt(op, 3, uint64(k), 0)
		var oe *OpError
		if errors.As(err, &oe) && oe.Code == statusUnsupported {
			return Value{}, false, nil
		}
		return v, err == nil, err
	}
	for c := range arith.NumConstants {
		v, ok, err := own(opConstant, c)
		if err == nil && !ok {
			v, err = imp(arith.Binary64(arith.Constant(c)), func() *big.Float { return ref.Const(arith.Constant(c)) })
		}
		if err != nil {
			return fmt.Errorf("constant %s: %w", arith.Constant(c), err)
		}
		l.consts[c] = v
	}
	for k := range l.gm {
		v, ok, err := own(opGM, k)
		if err == nil && !ok {
			v, err = imp(arith.GMBinary64(k), func() *big.Float { return ref.GM(k) })
		}
		if err != nil {
			return fmt.Errorf("twiddle %d: %w", k, err)
		}
		l.gm[k] = v
	}
	if l.fn[opExpmP63] != 0 {
		return nil
	}
	// The FACCT coefficients; rounded to 53 bits they are native's binary64
	// coefficients (package oracle tests that).
	var coeffs []*big.Float
	if b64 {
		r53, _ := oracle.NewVirtual(53)
		coeffs = r53.ExpmCoefficients()
	} else {
		coeffs = ref.ExpmCoefficients()
	}
	for i, c := range coeffs {
		f64, _ := c.Float64()
		v, err := imp(f64, func() *big.Float { return c })
		if err != nil {
			return fmt.Errorf("expm_p63 coefficient %d: %w", i, err)
		}
		l.expm = append(l.expm, v)
	}
	return nil
}

// selfCheck checks a few results whose values the ABI fixes: 1 and 2
// decode as such, 1 < 2, and under FPRLAB_FLAG_BINARY64_LAYOUT the layout
// and fprlab_decode agree.
func (l *lib) selfCheck() error {
	one, two := l.consts[arith.One], l.consts[arith.Two]
	sum, err := l.call2(opAdd, one, one)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		v    Value
		want float64
		what string
	}{{one, 1, "the constant 1"}, {two, 2, "the constant 2"}, {sum, 2, "1+1"}} {
		p, err := l.decodeCall(c.v)
		if err != nil {
			return err
		}
		if got := p.float64(); got != c.want {
			return fmt.Errorf("fprlab_decode of %s gives %g", c.what, got)
		}
	}
	lt, err := l.call2(opLt, one, two)
	if err != nil {
		return err
	}
	gt, err := l.call2(opLt, two, one)
	if err != nil {
		return err
	}
	if uint32(lt.w[0]) != 1 || uint32(gt.w[0]) != 0 {
		return fmt.Errorf("fprlab_lt(1, 2) = %d, fprlab_lt(2, 1) = %d (want 1 and 0)", uint32(lt.w[0]), uint32(gt.w[0]))
	}
	if l.layout64 {
		for _, v := range []Value{one, two, sum, l.consts[arith.InvQ], l.consts[arith.Log2], l.gm[5], l.gm[2047]} {
			p, err := l.decodeCall(v)
			if err != nil {
				return err
			}
			if got, lay := p.float64(), math.Float64frombits(v.w[0]); got != lay {
				return fmt.Errorf("FPRLAB_FLAG_BINARY64_LAYOUT: a value laid out as %g decodes as %g", lay, got)
			}
		}
	}
	return nil
}
