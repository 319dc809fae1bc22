package headless

import (
	"image"
	"image/color"
	"testing"
)

// TestInkFraction: a one-colour image has no ink; one whose right half
// differs from the top-left pixel has half.
func TestInkFraction(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for y := 0; y < 20; y++ {
		for x := 0; x < 40; x++ {
			img.Set(x, y, color.White)
		}
	}
	if f := InkFraction(img); f != 0 {
		t.Errorf("blank: %v", f)
	}
	for y := 0; y < 20; y++ {
		for x := 20; x < 40; x++ {
			img.Set(x, y, color.Black)
		}
	}
	if f := InkFraction(img); f != 0.5 {
		t.Errorf("half: %v, want 0.5", f)
	}
}
