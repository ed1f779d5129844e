package core

import "net/netip"

// IPBucket is what a client IP is counted as by every per-client limit (the sign-in throttle,
// passkey sign-ins in flight, sign-ups): an IPv4 address alone, an IPv6 address by its /64, since
// one subscriber usually holds a whole /64 and can pick any address in it. Text that is not an IP
// address is its own bucket.
func IPBucket(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	addr = addr.Unmap()
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}
