// Package noble holds the interoperability test of package falcon against
// an independent Falcon round-3 implementation, @noble/post-quantum (a
// JavaScript library run under node). It has no code of its own: the test
// (noble_test.go) and the node peer it talks to (testdata/noble.mjs) are
// the whole package.
//
// The peer's version is pinned exactly in testdata/package.json and
// testdata/package-lock.json. Install it with
//
//	npm ci --prefix interop/noble/testdata
//
// Without node or the installed package the test skips, unless the
// environment sets FPRLAB_INTEROP=1 (CI does), which turns the skip into a
// failure.
package noble
