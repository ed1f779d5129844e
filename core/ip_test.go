package core_test

import (
	"testing"

	"patrimonio/core"
)

func TestIPBucket(t *testing.T) {
	for _, tt := range []struct{ ip, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"}, // an IPv4 address written as IPv6 is the same client
		{"2001:db8:1:2::17", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::17", "2001:db8:1:3::/64"},
		{"not an address", "not an address"},
	} {
		if got := core.IPBucket(tt.ip); got != tt.want {
			t.Errorf("IPBucket(%q) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}
