package report

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromium returns the path of the chromium binary. Without one the
// browser tests skip, unless FPRLAB_CHROMIUM=1 (as CI sets), where a
// missing browser is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("FPRLAB_CHROMIUM") == "1" {
			t.Fatal("FPRLAB_CHROMIUM=1 but no chromium on PATH (apt-get install -y chromium)")
		}
		t.Skip("no chromium on PATH (set FPRLAB_CHROMIUM=1 to require it)")
	}
	return p
}

// runChromium runs headless Chromium on a local file with extra flags and
// returns its stdout and stderr (console messages are logged there).
func runChromium(t *testing.T, bin, page string, flags ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}, flags...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", flags, err, errb.String())
	}
	return out.String(), errb.String()
}

// checkInBrowser loads the page in headless Chromium and returns the
// problems found: a script error (the page's status element, or an
// uncaught error in Chromium's console log), or a blank rendering (the
// screenshot is a single colour, or almost all background).
func checkInBrowser(t *testing.T, bin, page string) []string {
	t.Helper()
	var problems []string
	dom, stderr := runChromium(t, bin, page, "--dump-dom")
	if !strings.Contains(dom, `data-status="ok"`) {
		status := "no status element"
		if i := strings.Index(dom, `id="report-status"`); i >= 0 {
			status = dom[i:min(len(dom), i+200)]
		}
		problems = append(problems, "page status is not ok: "+status)
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "Uncaught") || (strings.Contains(line, ":CONSOLE") && strings.Contains(strings.ToLower(line), "error")) {
			problems = append(problems, "console: "+line)
		}
	}
	shot := filepath.Join(t.TempDir(), "page.png")
	runChromium(t, bin, page, "--screenshot="+shot, "--window-size=1280,3000", "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if frac := inkFraction(img); frac < 0.01 {
		problems = append(problems, fmt.Sprintf("blank page: only %.4f of the pixels differ from the background", frac))
	}
	return problems
}

// inkFraction returns the fraction of pixels whose colour differs from
// the top-left pixel (the background).
func inkFraction(img image.Image) float64 {
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	br, bgc, bb, _ := bg.RGBA()
	ink, total := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r != br || g != bgc || bl != bb {
				ink++
			}
			total++
		}
	}
	return float64(ink) / float64(total)
}

// TestReportInChromium renders the example campaign's page in headless
// Chromium: its script must report no error and the screenshot must not
// be blank. A page with a deliberate script error and a blank page must
// both be caught, so the check can fail.
func TestReportInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := buildExample(t)
	good := filepath.Join(dir, "report.html")
	if err := os.WriteFile(good, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if p := checkInBrowser(t, bin, good); len(p) > 0 {
		t.Errorf("report: %s", strings.Join(p, "; "))
	}
	t.Logf("report (%d bytes) checked in Chromium in %v", len(page), time.Since(start).Round(time.Millisecond))

	broken := filepath.Join(dir, "broken.html")
	bad := strings.Replace(page, "</body>", "<script>undefinedFunction();</script></body>", 1)
	if err := os.WriteFile(broken, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := checkInBrowser(t, bin, broken); len(p) == 0 {
		t.Error("a page with a script error passed the browser check")
	}
	blank := filepath.Join(dir, "blank.html")
	if err := os.WriteFile(blank, []byte("<!DOCTYPE html><html><body></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := checkInBrowser(t, bin, blank); len(p) == 0 {
		t.Error("a blank page passed the browser check")
	}
}
