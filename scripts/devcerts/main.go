// Command devcerts writes certificates for trying rulebookd's TLS and mutual TLS on this machine into the directory
// it is given (made if missing): ca.crt, a certificate authority made for the run, and signed by it server.crt and
// server.key (for localhost, rulebook, 127.0.0.1 and ::1: rulebook is the name deploy/nginx checks) and client.crt
// and client.key (a client named readme). The CA's key is not kept: nothing else can be signed by it.
// Usage: go run ./scripts/devcerts DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rulebook/rulebook/internal/devcerts"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: devcerts DIR")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "devcerts:", err)
		os.Exit(1)
	}
}

// write writes the CA's certificate and the server and client pairs into dir.
func write(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ca, err := devcerts.NewCA("rulebook devcerts CA")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "ca.crt"), ca.CertPEM, 0o644); err != nil {
		return err
	}
	server, err := ca.Server("localhost", "rulebook", "127.0.0.1", "::1")
	if err != nil {
		return err
	}
	if err := server.Write(dir, "server"); err != nil {
		return err
	}
	client, err := ca.Client("readme")
	if err != nil {
		return err
	}
	return client.Write(dir, "client")
}
