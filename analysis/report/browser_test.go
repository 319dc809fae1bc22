package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fprlab/fprlab/internal/headless"
)

// checkInBrowser loads the page in headless Chromium and returns the
// problems found (headless.Browser.Check).
func checkInBrowser(t *testing.T, b *headless.Browser, page string) []string {
	t.Helper()
	_, problems, err := b.Check(page, 1280, 3000)
	if err != nil {
		t.Fatal(err)
	}
	return problems
}

// TestReportInChromium renders the example campaign's page in headless
// Chromium: its script must report no error and the screenshot must not
// be blank. A page with a deliberate script error and a blank page must
// both be caught, so the check can fail.
func TestReportInChromium(t *testing.T) {
	b := headless.ForTest(t)
	dir := t.TempDir()
	page := buildExample(t)
	good := filepath.Join(dir, "report.html")
	if err := os.WriteFile(good, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if p := checkInBrowser(t, b, good); len(p) > 0 {
		t.Errorf("report: %s", strings.Join(p, "; "))
	}
	t.Logf("report (%d bytes) checked in Chromium in %v", len(page), time.Since(start).Round(time.Millisecond))

	broken := filepath.Join(dir, "broken.html")
	bad := strings.Replace(page, "</body>", "<script>undefinedFunction();</script></body>", 1)
	if err := os.WriteFile(broken, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := checkInBrowser(t, b, broken); len(p) == 0 {
		t.Error("a page with a script error passed the browser check")
	}
	blank := filepath.Join(dir, "blank.html")
	if err := os.WriteFile(blank, []byte("<!DOCTYPE html><html><body></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := checkInBrowser(t, b, blank); len(p) == 0 {
		t.Error("a blank page passed the browser check")
	}
}
