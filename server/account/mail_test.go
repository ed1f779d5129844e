package account_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/server/account"
)

// smtpServer is a small SMTP server speaking the protocol over a real TCP socket: EHLO with AUTH
// PLAIN (no STARTTLS), MAIL, RCPT, DATA, QUIT. It accepts one session and reports what it got.
type smtpServer struct {
	addr     string
	user     string
	pass     string
	received chan smtpSession
}

type smtpSession struct {
	auth, from, to string
	data           string
	err            error
}

func startSMTP(t *testing.T, user, pass string) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &smtpServer{addr: ln.Addr().String(), user: user, pass: pass, received: make(chan smtpSession, 1)}
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		s.received <- s.serve(conn)
	}()
	return s
}

func (s *smtpServer) serve(conn net.Conn) smtpSession {
	var got smtpSession
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(conn)
	say := func(line string) { _, _ = io.WriteString(conn, line+"\r\n") }
	say("220 localhost ESMTP test")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			got.err = err
			return got
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch {
		case verb == "EHLO":
			say("250-localhost")
			say("250-AUTH PLAIN")
			say("250 8BITMIME")
		case verb == "AUTH":
			parts := strings.Fields(line)
			raw, _ := base64.StdEncoding.DecodeString(parts[len(parts)-1])
			got.auth = string(raw)
			if got.auth != "\x00"+s.user+"\x00"+s.pass {
				say("535 5.7.8 authentication failed")
				continue
			}
			say("235 2.7.0 ok")
		case verb == "MAIL":
			got.from = line
			say("250 ok")
		case verb == "RCPT":
			got.to = line
			say("250 ok")
		case verb == "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					got.err = err
					return got
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			got.data = b.String()
			say("250 queued")
		case verb == "QUIT":
			say("221 bye")
			return got
		default:
			say("502 unknown")
		}
	}
}

func TestTheSMTPMailerDeliversAUTF8MessageWithTheCode(t *testing.T) {
	srv := startSMTP(t, "mailer", "s3cr3t pass")
	m, err := account.NewSMTPMailer("smtp://mailer:s3cr3t%20pass@"+srv.addr, "Patrimonio <no-reply@patrimonio.test>")
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), account.Mail{
		To: "ana@example.com", Subject: "Tu código para verificar el correo en Patrimonio",
		Text: "Hola:\n\nTu código es 123456. ¡Caduca pronto!\n", Code: "123456", SentAt: time.Date(2025, 3, 10, 10, 0, 0, 0, time.UTC),
	})
	if err != nil {
		t.Fatal(err)
	}
	got := <-srv.received
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.auth != "\x00mailer\x00s3cr3t pass" || got.from != "MAIL FROM:<no-reply@patrimonio.test> BODY=8BITMIME" && got.from != "MAIL FROM:<no-reply@patrimonio.test>" || got.to != "RCPT TO:<ana@example.com>" {
		t.Fatalf("session = %+v", got)
	}
	msg, err := mail.ReadMessage(strings.NewReader(got.data))
	if err != nil {
		t.Fatal(err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || subject != "Tu código para verificar el correo en Patrimonio" {
		t.Fatalf("subject %q %v", subject, err)
	}
	if msg.Header.Get("Content-Type") != "text/plain; charset=utf-8" || msg.Header.Get("To") != "ana@example.com" ||
		!strings.Contains(msg.Header.Get("From"), "no-reply@patrimonio.test") || msg.Header.Get("Message-Id") == "" {
		t.Fatalf("headers %v", msg.Header)
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != "Hola:\r\n\r\nTu código es 123456. ¡Caduca pronto!\r\n" {
		t.Fatalf("body %q", body)
	}
}

func TestTheSMTPMailerReportsARefusedLogin(t *testing.T) {
	srv := startSMTP(t, "mailer", "right")
	m, err := account.NewSMTPMailer("smtp://mailer:wrong@"+srv.addr, "no-reply@patrimonio.test")
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), account.Mail{To: "ana@example.com", Subject: "x", Text: "y"})
	if err == nil || !strings.Contains(err.Error(), "AUTH") {
		t.Fatalf("Send = %v, want an AUTH error", err)
	}
}

func TestSMTPURLsAreCheckedWithoutRepeatingThePassword(t *testing.T) {
	for _, tt := range []struct{ name, url, from string }{
		{"another scheme", "http://u:hunter2@mail.example.com", "a@example.com"},
		{"no host", "smtp://u:hunter2@:587", "a@example.com"},
		{"a path", "smtp://u:hunter2@mail.example.com/x", "a@example.com"},
		{"a bad From", "smtp://u:hunter2@mail.example.com", "not an address"},
		{"no From", "smtp://u:hunter2@mail.example.com", ""},
	} {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			_, err := account.NewSMTPMailer(tt.url, tt.from)
			if err == nil {
				t.Fatal("accepted")
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("error %q leaks the password", err)
			}
		})
	}
	for _, u := range []string{"smtp://mail.example.com", "smtps://u:p@mail.example.com", "SMTP://u@mail.example.com:2525"} {
		if _, err := account.NewSMTPMailer(u, "a@example.com"); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

func TestTheLogMailerWritesOneJSONFilePerMailToTheOutbox(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outbox")
	m := &account.LogMailer{OutboxDir: dir}
	base := time.Date(2025, 3, 10, 10, 0, 0, 0, time.UTC)
	for i, to := range []string{"ana@example.com", "bob@example.com", "Ana@Example.com"} {
		if err := m.Send(context.Background(), account.Mail{To: to, Subject: "s", Text: "t " + to, Code: "00000" + string(rune('1'+i)),
			Purpose: "verify_email", SentAt: base.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 3 {
		t.Fatalf("outbox holds %d files (%v)", len(entries), err)
	}
	all, err := account.ReadOutbox(dir, "")
	if err != nil || len(all) != 3 || all[0].Code != "000001" || all[2].Code != "000003" {
		t.Fatalf("all mails: %+v %v", all, err)
	}
	ana, err := account.ReadOutbox(dir, "ANA@example.com")
	if err != nil || len(ana) != 2 || ana[1].Code != "000003" || !ana[1].SentAt.Equal(base.Add(2*time.Second)) {
		t.Fatalf("ana's mails: %+v %v", ana, err)
	}
	none, err := account.ReadOutbox(filepath.Join(t.TempDir(), "missing"), "")
	if err != nil || len(none) != 0 {
		t.Fatalf("a missing outbox: %+v %v", none, err)
	}
}
