// Package plot draws the figures of a precision campaign from the
// documents the measuring commands write (package results reads them):
// error histograms per backend (per sampler call and per signature, the
// specification's test, and delta_c and delta_sigma apart), error,
// security (worst and average case) and KAT conformance against precision
// from a sweep, per-stage error per backend, per-operation errors,
// precision plans (tune),
// the expm_p63 error over its domain (measured by the program through
// MeasureExpm), and the hardware models' figures (fpr-unit cycles, RIPST).
// It uses gonum.org/v1/plot and links no arithmetic backend: a backend's
// precision comes from the documents (or, for documents that predate it,
// the registry of whatever backends the program links).
//
// Every figure says in its title what was measured and on how many
// signatures, labels its axes with units (errors as log2), names its
// reference lines (with the degree and sample of measured ones) in its
// legend, and records the points it draws (Figure.drawn) for the tests.
// Output is PNG, SVG or PDF, chosen by the file extension. SVG output is
// byte-stable (fixed fonts, no timestamps), which the golden tests rely
// on, and names fallback fonts of the same metrics; PDF embeds a creation
// date and is not.
//
// It draws what the documents say and computes nothing about Falcon.
package plot

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/fprlab/fprlab/internal/safefile"
)

// Figure is one drawn figure: one or more panels, stacked vertically, or
// in a grid of cols columns filled row by row.
type Figure struct {
	panels []*gplot.Plot
	w, h   vg.Length
	cols   int // 0 or 1: one column
	// drawn holds the data points of every series the figure draws, by a
	// name of the series, so that tests check the numbers a figure draws
	// against the document rather than its pixels.
	drawn drawnLog
}

// drawnLog records the points of the series of a figure by name.
type drawnLog map[string]plotter.XYs

// add records the points of the named series (appending to it).
func (d drawnLog) add(name string, xy plotter.XYs) {
	if d != nil {
		d[name] = append(d[name], xy...)
	}
}

// Panels returns the number of panels.
func (f *Figure) Panels() int { return len(f.panels) }

// PNGDPI is the resolution of PNG output.
const PNGDPI = 150

// Formats are the output formats, by file extension.
var Formats = []string{"png", "svg", "pdf"}

// Write draws the figure in format ("png", "svg" or "pdf") to w.
func (f *Figure) Write(w io.Writer, format string) error {
	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.New(f.w, f.h)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.w, f.h), vgimg.UseDPI(PNGDPI))}
	case "pdf":
		c = vgpdf.New(f.w, f.h)
	default:
		return fmt.Errorf("output format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	dc := draw.New(c)
	if len(f.panels) == 1 {
		f.panels[0].Draw(dc)
	} else {
		cols := max(1, f.cols)
		rows := (len(f.panels) + cols - 1) / cols
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadX: vg.Points(14), PadY: vg.Points(10)}
		grid := make([][]*gplot.Plot, rows)
		for r := range grid {
			grid[r] = make([]*gplot.Plot, cols)
		}
		for i, p := range f.panels {
			grid[i/cols][i%cols] = p
		}
		canvases := gplot.Align(grid, tiles, dc)
		for i, p := range f.panels {
			p.Draw(canvases[i/cols][i%cols])
		}
	}
	if format != "svg" {
		_, err := c.WriteTo(w)
		return err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	_, err := w.Write(svgFontFallback(buf.Bytes()))
	return err
}

// svgFontFallbacks follow each font family gonum's SVG canvas names:
// fonts with the same metrics first (Liberation is metric-compatible with
// the Times, Arial and Courier families, as are Tinos, Arimo and Cousine),
// then the generic family, so that a browser without the Liberation fonts
// lays the text out at the widths the figure was measured with instead of
// running legend text over its swatches.
var svgFontFallbacks = map[string]string{
	"Liberation Serif": `'Liberation Serif','Times New Roman',Tinos,Times,serif`,
	"Liberation Sans":  `'Liberation Sans',Arial,Arimo,Helvetica,sans-serif`,
	"Liberation Mono":  `'Liberation Mono','Courier New',Cousine,Courier,monospace`,
}

// svgFontFallback rewrites the font-family of every text element of an
// SVG written by gonum into the fallback list of svgFontFallbacks.
func svgFontFallback(svg []byte) []byte {
	for family, list := range svgFontFallbacks {
		svg = bytes.ReplaceAll(svg, []byte("font-family:"+family+";"), []byte("font-family:"+list+";"))
	}
	return svg
}

// FormatOf returns the output format a file name asks for.
func FormatOf(path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	for _, f := range Formats {
		if ext == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("output file %q: the extension must be .png, .svg or .pdf", path)
}

// Bytes returns the figure drawn in format.
func (f *Figure) Bytes(format string) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Write(&buf, format); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Save writes the figure to path in the format its extension names,
// atomically (package safefile: a temporary file renamed over path once
// complete).
func (f *Figure) Save(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	data, err := f.Bytes(format)
	if err != nil {
		return err
	}
	return safefile.WriteFiles(os.Stdout, safefile.File{Path: path, Data: data})
}
