package plan

// ForeignImports counts the Import calls of the test family "bigref"
// (foreign_test.go), for the tests of package plan_test.
var ForeignImports = &imports
