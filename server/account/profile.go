package account

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // decoder: profile images may be GIF
	_ "image/jpeg" // decoder: profile images may be JPEG
	"image/png"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decoder: profile images may be WEBP

	"patrimonio/core"
)

// The profile (issue 11, spec §5): a username of 3 to 20 characters, unique without regard to
// case, and a profile image — JPG, PNG, GIF or WEBP under 10 MB, recognised by its content (not
// its name or declared type), stored resized to a 256-pixel square PNG in the database.

const (
	UsernameMin = 3
	UsernameMax = 20
	// AvatarMaxBytes is the largest profile image accepted: under 10 MB.
	AvatarMaxBytes = 10 << 20
	// AvatarSize is the side of the stored square image.
	AvatarSize = 256
	// avatarMaxPixels bounds the decoded size (a small file can claim a huge image).
	avatarMaxPixels = 40_000_000
)

// SetUsername sets the user's username ("" removes it). It must have 3 to 20 characters: letters,
// digits, ".", "_" or "-". A username another user has (in any case) is ECONFLICT.
func (s *Profile) SetUsername(ctx context.Context, u *User, username string) (*User, error) {
	username = strings.TrimSpace(username)
	var value, key any
	if username != "" {
		n := utf8.RuneCountInString(username)
		if n < UsernameMin || n > UsernameMax {
			return nil, core.Refuse(ctx, core.EINVALID, "account.username.length", UsernameMin, UsernameMax)
		}
		for _, r := range username {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '_' && r != '-' {
				return nil, core.Refuse(ctx, core.EINVALID, "account.username.characters")
			}
		}
		value, key = username, strings.ToLower(username)
	}
	if _, err := s.db.Exec(ctx, `UPDATE users SET username = ?, username_key = ?, updated_at = ? WHERE id = ?`, value, key, s.now(), u.ID); err != nil {
		if isUniqueViolation(err) {
			return nil, core.Refuse(ctx, core.ECONFLICT, "account.username.taken")
		}
		return nil, fmt.Errorf("set username: %w", err)
	}
	return s.user(ctx, u.ID)
}

// SetAvatar checks data as a JPEG, PNG, GIF or WEBP image under AvatarMaxBytes by its content,
// resizes it to an AvatarSize square (cropped to the middle) and stores it as PNG.
func (s *Profile) SetAvatar(ctx context.Context, u *User, data []byte) error {
	if len(data) == 0 {
		return core.Refuse(ctx, core.EINVALID, "account.avatar.empty")
	}
	if len(data) >= AvatarMaxBytes {
		return core.Refuse(ctx, core.ETOOLARGE, "account.avatar.tooLarge", AvatarMaxBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "jpeg" && format != "png" && format != "gif" && format != "webp") {
		return core.Refuse(ctx, core.EINVALID, "account.avatar.format")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > avatarMaxPixels {
		return core.Refuse(ctx, core.EINVALID, "account.avatar.dimensions")
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return core.Refuse(ctx, core.EINVALID, "account.avatar.format")
	}
	out, err := squarePNG(img, AvatarSize)
	if err != nil {
		return fmt.Errorf("resize profile image: %w", err)
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO user_avatars (user_id, content_type, data, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data, updated_at = excluded.updated_at`,
		u.ID, "image/png", out, s.now()); err != nil {
		return fmt.Errorf("store profile image: %w", err)
	}
	return nil
}

// RemoveAvatar deletes the user's profile image (nothing to delete is not an error).
func (s *Profile) RemoveAvatar(ctx context.Context, u *User) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM user_avatars WHERE user_id = ?`, u.ID); err != nil {
		return fmt.Errorf("remove profile image: %w", err)
	}
	return nil
}

// Avatar returns the stored profile image of the user and its content type; ENOTFOUND when none.
func (s *Profile) Avatar(ctx context.Context, userID string) ([]byte, string, error) {
	var data []byte
	var contentType string
	err := s.db.QueryRow(ctx, `SELECT data, content_type FROM user_avatars WHERE user_id = ?`, userID).Scan(&data, &contentType)
	if isNoRows(err) {
		return nil, "", core.Refuse(ctx, core.ENOTFOUND, "account.avatar.none")
	}
	if err != nil {
		return nil, "", fmt.Errorf("load profile image: %w", err)
	}
	return data, contentType, nil
}

// squarePNG crops img to its middle square and scales it to size×size, as PNG.
func squarePNG(img image.Image, size int) ([]byte, error) {
	b := img.Bounds()
	side := min(b.Dx(), b.Dy())
	x0 := b.Min.X + (b.Dx()-side)/2
	y0 := b.Min.Y + (b.Dy()-side)/2
	src := image.Rect(x0, y0, x0+side, y0+side)
	dst := image.NewNRGBA(image.Rect(0, 0, size, size))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.Transparent), image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, src, draw.Over, nil)
	var buf bytes.Buffer
	if err := png.Encode(&buf, dst); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
