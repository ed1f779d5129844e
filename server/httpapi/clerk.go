package httpapi

// What the HTTP layer does differently when Clerk signs users in: the Content-Security-Policy lets
// the PWA load Clerk's components. (Clerk's session tokens are verified by the Authenticator in
// server/clerkauth; /auth/config shows the publishable key; the password and passkey endpoints
// refuse.)

import "strings"

// clerkContentSecurityPolicy adds to policy what Clerk's components need (Clerk's "Configure
// Clerk Content-Security-Policy headers"): scripts and API calls of the instance's Frontend API,
// Cloudflare's bot protection (a script and a frame), avatars from img.clerk.com and workers from
// blob: URLs. style-src already allows inline styles.
func clerkContentSecurityPolicy(policy, frontendAPI string) string {
	extra := map[string]string{
		"script-src":  "https://challenges.cloudflare.com",
		"img-src":     "https://img.clerk.com",
		"worker-src":  "blob:",
		"frame-src":   "'self' https://challenges.cloudflare.com",
		"connect-src": "",
	}
	if frontendAPI != "" {
		extra["script-src"] = "https://" + frontendAPI + " " + extra["script-src"]
		extra["connect-src"] = "https://" + frontendAPI
	}
	directives := strings.Split(policy, ";")
	seen := map[string]bool{}
	for i, d := range directives {
		d = strings.TrimSpace(d)
		name, _, _ := strings.Cut(d, " ")
		if add := extra[name]; add != "" {
			d += " " + add
		}
		seen[name] = true
		directives[i] = d
	}
	for _, name := range []string{"script-src", "connect-src", "img-src", "worker-src", "frame-src"} {
		if !seen[name] && extra[name] != "" {
			directives = append(directives, name+" "+extra[name])
		}
	}
	return strings.Join(directives, "; ")
}
