package account

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Mail is one message with an e-mailed code.
type Mail struct {
	To      string
	Subject string
	Text    string
	// Code and Purpose are the code the text carries and what it is for; only the dev outbox and
	// the log show them apart from the text.
	Code    string
	Purpose string
	SentAt  time.Time
	// Link is the link the text carries (a password reset), "" for none.
	Link string
}

// Mailer delivers mails.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// NewMailer returns the SMTP mailer when smtpURL is set, and otherwise the log mailer, which also
// writes to the dev outbox directory when outboxDir is set.
func NewMailer(smtpURL, from, outboxDir string, logger *slog.Logger) (Mailer, error) {
	if smtpURL != "" {
		return NewSMTPMailer(smtpURL, from)
	}
	return &LogMailer{Logger: logger, OutboxDir: outboxDir}, nil
}

// SMTPMailer sends through an SMTP server given as smtp://user:pass@host:587 (STARTTLS when the
// server offers it; net/smtp refuses to send a password without TLS except to localhost) or
// smtps://user:pass@host:465 (TLS from the start).
type SMTPMailer struct {
	addr     string // host:port
	host     string
	implicit bool // smtps
	user     string
	pass     string
	from     *mail.Address
	// TLSConfig is used for STARTTLS and smtps; nil means the system roots and the URL's host.
	TLSConfig *tls.Config
	// Timeout bounds one delivery (30 s when zero).
	Timeout time.Duration
}

// NewSMTPMailer parses the URL and the From address. Errors never repeat the URL (it holds a
// password).
func NewSMTPMailer(smtpURL, from string) (*SMTPMailer, error) {
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, errors.New("the SMTP URL cannot be parsed")
	}
	m := &SMTPMailer{host: u.Hostname()}
	port := u.Port()
	switch strings.ToLower(u.Scheme) {
	case "smtp":
		if port == "" {
			port = "587"
		}
	case "smtps":
		m.implicit = true
		if port == "" {
			port = "465"
		}
	default:
		return nil, errors.New("the SMTP URL must start with smtp:// or smtps://")
	}
	if m.host == "" {
		return nil, errors.New("the SMTP URL has no host")
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		return nil, errors.New("the SMTP URL must not have a path or query")
	}
	if u.User != nil {
		m.user = u.User.Username()
		m.pass, _ = u.User.Password()
	}
	m.addr = net.JoinHostPort(m.host, port)
	if m.from, err = mail.ParseAddress(from); err != nil || from == "" {
		return nil, errors.New("the From address (PATRIMONIO_MAIL_FROM) is not a valid e-mail address")
	}
	return m, nil
}

// Send delivers m.
func (m *SMTPMailer) Send(ctx context.Context, mm Mail) error {
	timeout := m.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tlsConfig := m.TLSConfig
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: m.host, MinVersion: tls.VersionTLS12}
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", m.addr)
	if err != nil {
		return fmt.Errorf("smtp: connect to %s: %w", m.addr, err)
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if m.implicit {
		tc := tls.Client(conn, tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return fmt.Errorf("smtp: TLS with %s: %w", m.addr, err)
		}
		conn = tc
	}
	c, err := smtp.NewClient(conn, m.host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp: greeting of %s: %w", m.addr, err)
	}
	defer c.Close()
	if err := c.Hello(helloName(m.from.Address)); err != nil {
		return fmt.Errorf("smtp: EHLO: %w", err)
	}
	if !m.implicit {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(tlsConfig); err != nil {
				return fmt.Errorf("smtp: STARTTLS: %w", err)
			}
		}
	}
	if m.user != "" {
		if err := c.Auth(smtp.PlainAuth("", m.user, m.pass, m.host)); err != nil {
			return fmt.Errorf("smtp: AUTH: %w", err)
		}
	}
	if err := c.Mail(m.from.Address); err != nil {
		return fmt.Errorf("smtp: MAIL FROM: %w", err)
	}
	if err := c.Rcpt(mm.To); err != nil {
		return fmt.Errorf("smtp: RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp: DATA: %w", err)
	}
	if _, err := w.Write(m.message(mm)); err != nil {
		return fmt.Errorf("smtp: write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp: end message: %w", err)
	}
	return c.Quit()
}

func helloName(from string) string {
	if _, domain, ok := strings.Cut(from, "@"); ok && domain != "" {
		return domain
	}
	return "localhost"
}

// message renders m as an RFC 5322 text/plain UTF-8 message, quoted-printable.
func (m *SMTPMailer) message(mm Mail) []byte {
	var b bytes.Buffer
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	sentAt := mm.SentAt
	if sentAt.IsZero() {
		sentAt = time.Now()
	}
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", m.from.String())
	header("To", mm.To)
	header("Subject", mime.QEncoding.Encode("utf-8", mm.Subject))
	header("Date", sentAt.Format(time.RFC1123Z))
	header("Message-ID", "<"+hex.EncodeToString(id)+"@"+helloName(m.from.Address)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	header("Auto-Submitted", "auto-generated")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(strings.ReplaceAll(mm.Text, "\n", "\r\n")))
	_ = qp.Close()
	return b.Bytes()
}

// LogMailer writes mails to the log (development and self-hosting without SMTP) and, when
// OutboxDir is set, one JSON file per mail into that directory (the dev outbox).
type LogMailer struct {
	Logger    *slog.Logger
	OutboxDir string
}

// OutboxMail is the JSON of one file of the dev outbox.
type OutboxMail struct {
	To      string    `json:"to"`
	Subject string    `json:"subject"`
	Text    string    `json:"text"`
	Code    string    `json:"code"`
	Purpose string    `json:"purpose"`
	SentAt  time.Time `json:"sentAt"`
	Link    string    `json:"link,omitempty"`
}

// Send logs m and writes it to the outbox.
func (l *LogMailer) Send(ctx context.Context, m Mail) error {
	if l.Logger != nil {
		l.Logger.InfoContext(ctx, "e-mail (no SMTP configured; not delivered)", "to", m.To, "subject", m.Subject,
			"purpose", m.Purpose, "code", m.Code)
	}
	if l.OutboxDir == "" {
		return nil
	}
	if err := os.MkdirAll(l.OutboxDir, 0o700); err != nil {
		return fmt.Errorf("dev outbox: %w", err)
	}
	body, err := json.MarshalIndent(OutboxMail{To: m.To, Subject: m.Subject, Text: m.Text, Code: m.Code,
		Purpose: m.Purpose, SentAt: m.SentAt.UTC(), Link: m.Link}, "", "  ")
	if err != nil {
		return fmt.Errorf("dev outbox: %w", err)
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	name := fmt.Sprintf("%s-%s.json", m.SentAt.UTC().Format("20060102T150405.000000000Z"), hex.EncodeToString(suffix))
	// Write under a temporary name and rename, so that a reader never sees half a file.
	tmp := filepath.Join(l.OutboxDir, "."+name+".tmp")
	if err := os.WriteFile(tmp, body, 0o600); err != nil {
		return fmt.Errorf("dev outbox: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(l.OutboxDir, name)); err != nil {
		return fmt.Errorf("dev outbox: %w", err)
	}
	return nil
}

// ReadOutbox lists the mails of the dev outbox, oldest first; to, when not empty, keeps the mails
// to that address only (any case).
func ReadOutbox(dir, to string) ([]OutboxMail, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []OutboxMail{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read dev outbox: %w", err)
	}
	to = NormalizeEmail(to)
	out := []OutboxMail{}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read dev outbox: %w", err)
		}
		var m OutboxMail
		if err := json.Unmarshal(b, &m); err != nil {
			continue // not one of ours
		}
		if to != "" && NormalizeEmail(m.To) != to {
			continue
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SentAt.Before(out[j].SentAt) })
	return out, nil
}
