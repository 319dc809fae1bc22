// Package headless drives headless Chromium (Debian's chromium package) on
// a local page, for the tests that render fprlab's HTML reports: the page's
// DOM after its scripts ran, and a screenshot. Nothing is loaded from the
// network; each run gets a fresh profile directory.
package headless

import (
	"bytes"
	"context"
	"errors"
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

// Timeout bounds one Chromium run.
const Timeout = 90 * time.Second

// Find returns the path of the chromium binary on PATH.
func Find() (string, error) {
	p, err := exec.LookPath("chromium")
	if err != nil {
		return "", errors.New("no chromium on PATH (apt-get install -y chromium)")
	}
	return p, nil
}

// Browser runs one Chromium binary with profiles under Dir.
type Browser struct {
	Bin string
	// Dir holds the runs' profile directories (a test's TempDir).
	Dir string
	n   int
}

// Run runs Chromium on the local file page with extra flags and returns
// its stdout and stderr (console messages are logged on stderr).
func (b *Browser) Run(page string, flags ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	b.n++
	profile := filepath.Join(b.Dir, fmt.Sprintf("profile-%d", b.n))
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"}, flags...)
	abs, err := filepath.Abs(page)
	if err != nil {
		return "", "", err
	}
	args = append(args, "file://"+abs)
	cmd := exec.CommandContext(ctx, b.Bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), errb.String(), fmt.Errorf("chromium %v: %w\n%s", flags, err, errb.String())
	}
	return out.String(), errb.String(), nil
}

// DOM returns the page's DOM after its scripts ran, and Chromium's log.
func (b *Browser) DOM(page string) (dom, log string, err error) {
	return b.Run(page, "--dump-dom")
}

// Screenshot renders the page in a window of width x height pixels and
// writes the PNG to out, returning the decoded image.
func (b *Browser) Screenshot(page, out string, width, height int) (image.Image, error) {
	if _, _, err := b.Run(page, "--screenshot="+out, fmt.Sprintf("--window-size=%d,%d", width, height), "--hide-scrollbars"); err != nil {
		return nil, err
	}
	f, err := os.Open(out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("screenshot %s: %w", out, err)
	}
	return img, nil
}

// InkFraction returns the fraction of pixels (sampled every other row and
// column) whose colour differs from the top-left pixel, the background: a
// blank rendering has almost none.
func InkFraction(img image.Image) float64 {
	r := img.Bounds()
	br, bgc, bb, _ := img.At(r.Min.X, r.Min.Y).RGBA()
	ink, total := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr != br || cg != bgc || cb != bb {
				ink++
			}
			total++
		}
	}
	return float64(ink) / float64(total)
}

// Check loads a report page (package analysis/report) and returns its DOM
// and the problems found: a script error (the page's #report-status
// element, which its script sets to data-status="ok" once loaded, or an
// uncaught error in Chromium's console log), or a blank rendering (the
// screenshot, width x height, almost all background).
func (b *Browser) Check(page string, width, height int) (dom string, problems []string, err error) {
	dom, log, err := b.DOM(page)
	if err != nil {
		return "", nil, err
	}
	if !strings.Contains(dom, `data-status="ok"`) {
		status := "no status element"
		if i := strings.Index(dom, `id="report-status"`); i >= 0 {
			status = dom[i:min(len(dom), i+200)]
		}
		problems = append(problems, "page status is not ok: "+status)
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "Uncaught") || (strings.Contains(line, ":CONSOLE") && strings.Contains(strings.ToLower(line), "error")) {
			problems = append(problems, "console: "+line)
		}
	}
	b.n++
	img, err := b.Screenshot(page, filepath.Join(b.Dir, fmt.Sprintf("shot-%d.png", b.n)), width, height)
	if err != nil {
		return dom, problems, err
	}
	if frac := InkFraction(img); frac < 0.01 {
		problems = append(problems, fmt.Sprintf("blank page: only %.4f of the pixels differ from the background", frac))
	}
	return dom, problems, nil
}

// ForTest returns a Browser for a test, with profiles under its TempDir.
// Without chromium on PATH the test is skipped, unless FPRLAB_CHROMIUM=1
// (as CI sets), where a missing browser fails it.
func ForTest(t testing.TB) *Browser {
	t.Helper()
	bin, err := Find()
	if err != nil {
		if os.Getenv("FPRLAB_CHROMIUM") == "1" {
			t.Fatalf("FPRLAB_CHROMIUM=1 but %v", err)
		}
		t.Skipf("%v (set FPRLAB_CHROMIUM=1 to require it)", err)
	}
	return &Browser{Bin: bin, Dir: t.TempDir()}
}
