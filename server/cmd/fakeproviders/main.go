// Command fakeproviders serves the fake Enable Banking and SnapTrade APIs of the Go tests
// (server/connect/enablebanking/ebfake, server/connect/snaptrade/stfake) on one port, for the
// end-to-end tests and for trying the connect flow without accounts at the providers:
//
//	fakeproviders -addr 127.0.0.1:0 -key-out /tmp/eb.pem
//
// It writes a fresh Enable Banking application key to -key-out (for PATRIMONIO_ENABLEBANKING_KEY_FILE)
// and prints one JSON line with the base URLs to point the server at:
// {"enablebanking":"http://…/eb","snaptrade":"http://…/st/api/v1","appId":"…","clientId":"…","consumerKey":"…"}.
// Development and tests only: it accepts any consent at once.
package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"patrimonio/server/connect/enablebanking/ebfake"
	"patrimonio/server/connect/snaptrade/stfake"
)

const (
	appID       = "00000000-0000-4000-8000-0000000000eb"
	clientID    = "PATRIMONIO-FAKE"
	consumerKey = "fake-consumer-key"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	keyOut := flag.String("key-out", "", "file to write the Enable Banking application's private key to (PEM)")
	flag.Parse()
	if *keyOut == "" {
		log.Fatal("fakeproviders: -key-out is required")
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		log.Fatal(err)
	}
	block := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := os.WriteFile(*keyOut, block, 0o600); err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	eb := ebfake.New(appID, &key.PublicKey)
	eb.URL = base + "/eb"
	st := stfake.New(clientID, consumerKey)
	st.URL = base + "/st"
	mux := http.NewServeMux()
	mux.Handle("/eb/", http.StripPrefix("/eb", eb))
	mux.Handle("/st/", http.StripPrefix("/st", st))
	line, _ := json.Marshal(map[string]string{"enablebanking": eb.URL, "snaptrade": st.URL + "/api/v1", "appId": appID,
		"clientId": clientID, "consumerKey": consumerKey})
	fmt.Println(string(line))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
