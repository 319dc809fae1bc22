// Package rtltest holds the tests of the SystemVerilog multiplier example
// (../fmul64.sv) and its Verilator plugin (../plugin.cpp), from a
// directory of its own since Go refuses C++ files in a package without cgo: they verilate and build
// the plugin with Debian's verilator and g++ in a temporary directory,
// skipping without them except under CI=true. See docs/rtl.md.
package rtltest
