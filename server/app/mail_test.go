package app_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowSMTP is an SMTP server on a real socket that takes delay before greeting each session, as a
// real one takes its connection, TLS and AUTH; it records the recipient of every mail it accepts.
type slowSMTP struct {
	addr  string
	delay time.Duration

	mu sync.Mutex
	to []string
}

func startSlowSMTP(t *testing.T, delay time.Duration) *slowSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &slowSMTP{addr: ln.Addr().String(), delay: delay}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	return s
}

func (s *slowSMTP) serve(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	time.Sleep(s.delay)
	r := bufio.NewReader(conn)
	say := func(line string) { _, _ = io.WriteString(conn, line+"\r\n") }
	say("220 localhost ESMTP slow")
	var to string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		switch strings.ToUpper(strings.SplitN(line, " ", 2)[0]) {
		case "EHLO", "HELO", "MAIL":
			say("250 ok")
		case "RCPT":
			to = strings.Trim(strings.TrimPrefix(strings.ToUpper(line), "RCPT TO:"), "<>")
			say("250 ok")
		case "DATA":
			say("354 go ahead")
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
			}
			s.mu.Lock()
			s.to = append(s.to, strings.ToLower(to))
			s.mu.Unlock()
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 unknown")
		}
	}
}

func (s *slowSMTP) recipients() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.to...)
}

// With SMTP, the answers that mail an address must not wait for the delivery: a password reset for
// a known address would otherwise answer one SMTP session later than for an unknown one, which tells
// the addresses apart. The mails go out in the background, and all of them before Run returns.
func TestMailOverSMTPGoesOutAfterTheAnswer(t *testing.T) {
	smtp := startSlowSMTP(t, 500*time.Millisecond)
	cfg := testConfig(t)
	cfg.SMTPURL = "smtp://" + smtp.addr
	cfg.MailFrom = "Patrimonio <no-reply@patrimonio.test>"
	s, stop := start(t, cfg, nil)
	post := func(path string, body any) time.Duration {
		t.Helper()
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v1"+path, bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", s.URL())
		began := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(began)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("POST %s: %d", path, resp.StatusCode)
		}
		return took
	}
	post("/auth/signup", map[string]string{"email": "ana@example.com", "password": "lentejas con chorizo 42"})
	unknown := post("/auth/password/forgot", map[string]string{"email": "nadie@example.com"})
	known := post("/auth/password/forgot", map[string]string{"email": "ana@example.com"})
	if known > unknown+250*time.Millisecond {
		t.Errorf("a known address answers after the delivery: %v, an unknown one %v", known, unknown)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if got := smtp.recipients(); len(got) != 2 || got[0] != "ana@example.com" || got[1] != "ana@example.com" {
		t.Fatalf("delivered to %q, want the code and the reset link to ana@example.com", got)
	}
}
