package account_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"strings"
	"testing"

	"patrimonio/core"
	"patrimonio/server/account"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A 1×1 lossless WEBP (no encoder in Go's libraries).
const tinyWEBP = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

func TestTheProfileImageIsCheckedByContentAndStoredResized(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		var gifBuf bytes.Buffer
		if err := gif.Encode(&gifBuf, image.NewPaletted(image.Rect(0, 0, 40, 30), []color.Color{color.Black, color.White}), nil); err != nil {
			t.Fatal(err)
		}
		webp, _ := base64.StdEncoding.DecodeString(tinyWEBP)
		for name, data := range map[string][]byte{"png": pngOf(t, 600, 400), "gif": gifBuf.Bytes(), "webp": webp} {
			if err := e.svc.Profile.SetAvatar(e.ctx, u, data); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			stored, ct, err := e.svc.Profile.Avatar(e.ctx, u.ID)
			if err != nil || ct != "image/png" {
				t.Fatalf("%s: %v %q", name, err, ct)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(stored))
			if err != nil || format != "png" || cfg.Width != 256 || cfg.Height != 256 {
				t.Fatalf("%s: stored %s %dx%d (%v)", name, format, cfg.Width, cfg.Height, err)
			}
		}
		if fresh, _ := e.svc.Users.User(e.ctx, u.ID); !fresh.HasAvatar {
			t.Fatal("HasAvatar is false")
		}
		// Anything else, whatever it is called, is refused with a clear message.
		wantCode(t, e.svc.Profile.SetAvatar(e.ctx, u, []byte("GIF89a but not really")), core.EINVALID)
		for _, data := range [][]byte{[]byte("GIF89a"), []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), []byte("%PDF-1.7")} {
			err := e.svc.Profile.SetAvatar(e.ctx, u, data)
			wantCode(t, err, core.EINVALID)
			if core.ErrorMessage(err) != "La imagen debe ser JPG, PNG, GIF o WEBP." {
				t.Fatalf("message %q", core.ErrorMessage(err))
			}
		}
		big := append(pngOf(t, 10, 10), bytes.Repeat([]byte{0}, account.AvatarMaxBytes)...)
		wantCode(t, e.svc.Profile.SetAvatar(e.ctx, u, big), core.ETOOLARGE)
		if err := e.svc.Profile.RemoveAvatar(e.ctx, u); err != nil {
			t.Fatal(err)
		}
		_, _, err := e.svc.Profile.Avatar(e.ctx, u.ID)
		wantCode(t, err, core.ENOTFOUND)
	})
}

func TestUsernamesHave3To20CharactersAndAreUnique(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		ana, _ := e.signUp(t, "ana@example.com")
		bob, _ := e.signUp(t, "bob@example.com")
		for _, bad := range []string{"ab", strings.Repeat("x", 21), "ana garcía", "ana@x"} {
			_, err := e.svc.Profile.SetUsername(e.ctx, ana, bad)
			wantCode(t, err, core.EINVALID)
		}
		_, err := e.svc.Profile.SetUsername(e.ctx, ana, "ab")
		if core.ErrorMessage(err) != "El nombre de usuario debe tener entre 3 y 20 caracteres." {
			t.Fatalf("message %q", core.ErrorMessage(err))
		}
		u, err := e.svc.Profile.SetUsername(e.ctx, ana, "Ana_García")
		if err != nil || u.Username != "Ana_García" {
			t.Fatalf("%+v %v", u, err)
		}
		if _, err := e.svc.Profile.SetUsername(e.ctx, ana, strings.Repeat("ñ", 20)); err != nil {
			t.Fatalf("20 characters (40 bytes) refused: %v", err)
		}
		if _, err := e.svc.Profile.SetUsername(e.ctx, ana, "Ana_García"); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.Profile.SetUsername(e.ctx, bob, "ana_garcía")
		wantCode(t, err, core.ECONFLICT)
		if core.ErrorMessage(err) != "Ese nombre de usuario ya está en uso. Elige otro." {
			t.Fatalf("message %q", core.ErrorMessage(err))
		}
		if u, err := e.svc.Profile.SetUsername(e.ctx, ana, ""); err != nil || u.Username != "" {
			t.Fatalf("removing: %+v %v", u, err)
		}
	})
}
