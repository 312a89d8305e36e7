package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/devcerts"
	"github.com/rulebook/rulebook/server/servertest"
)

// tlsEnv returns the environment of a rulebookd that serves TLS with files, and requires client certificates signed
// by their client CA if mutual is true.
func tlsEnv(files servertest.TLSFiles, mutual bool) map[string]string {
	env := map[string]string{stateKeysEnv: servertest.StateKeys, "RULEBOOK_TLS_CERT_FILE": files.Cert, "RULEBOOK_TLS_KEY_FILE": files.Key}
	if mutual {
		env["RULEBOOK_TLS_CLIENT_CA_FILE"] = files.ClientCA
	}
	return env
}

// listGames calls ListGames over gRPC on conn, and returns its status code.
func listGames(conn *grpc.ClientConn) codes.Code {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := conn.Invoke(ctx, "/rulebook.v1.RulesService/ListGames", &rulebookv1.ListGamesRequest{}, &rulebookv1.ListGamesResponse{})
	return status.Code(err)
}

// dialGRPC returns a gRPC connection to addr with creds, closed when the test ends.
func dialGRPC(t *testing.T, addr string, creds credentials.TransportCredentials) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// get fetches url with client, and returns the response (its body read and closed), or the error.
func get(client *http.Client, url string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	_, err = body.ReadFrom(resp.Body)
	return resp, err
}

// TestTLS runs rulebookd with a certificate and checks that every listener serves TLS, and TLS only: sealed games
// over gRPC and REST; Connect and gRPC-Web over HTTP/2 (by ALPN) and over HTTP/1.1; the admin listener's /healthz
// and /metrics; plaintext and TLS 1.1 refused on each listener.
func TestTLS(t *testing.T) {
	ca := servertest.NewCA(t, "test CA")
	files := servertest.WriteTLSFiles(t, t.TempDir(), servertest.ServerPair(t, ca), ca)
	p := startProcess(t, tlsEnv(files, false))
	if serving, _ := p.logged("serving"); serving["tls"] != true || serving["mutualTLS"] != false {
		t.Errorf("serving line %v, want tls true and mutualTLS false", serving)
	}
	cfg := servertest.ClientTLS(t, nil, ca)
	c := servertest.DialTLS(t, p.grpcAddr, p.httpAddr, cfg)

	for i, tr := range servertest.Transports {
		t.Run("sealed game over "+tr.Name, func(t *testing.T) {
			g := servertest.NewSealedGame(t, c, tr, "micropul", nil, uint64(i))
			if score := g.Play(t, []*servertest.Client{c}, 6); score != nil || g.Moves != 6 {
				t.Errorf("after %d moves: score %v, want 6 moves of a game going on", g.Moves, score)
			}
		})
	}
	for _, http1 := range []bool{false, true} {
		client := servertest.HTTPSClient(cfg, http1)
		t.Cleanup(client.CloseIdleConnections)
		wantProto := map[bool]int{false: 2, true: 1}[http1]
		t.Run("HTTP/"+strconv.Itoa(wantProto), func(t *testing.T) {
			resp, err := get(client, c.URL+"/openapi.json")
			if err != nil || resp.StatusCode != http.StatusOK || resp.ProtoMajor != wantProto {
				t.Fatalf("GET /openapi.json: %v %v, want 200 over HTTP/%d", resp, err, wantProto)
			}
			for name, opts := range map[string][]connect.ClientOption{"Connect": nil, "gRPC-Web": {connect.WithGRPCWeb()}} {
				games := connect.NewClient[rulebookv1.ListGamesRequest, rulebookv1.ListGamesResponse](client,
					c.URL+"/rulebook.v1.RulesService/ListGames", opts...)
				resp, err := games.CallUnary(servertest.CallContext(t), connect.NewRequest(&rulebookv1.ListGamesRequest{}))
				if err != nil || len(resp.Msg.GetGames()) == 0 {
					t.Errorf("ListGames over %s: %v, want the games", name, err)
				}
			}
		})
	}
	t.Run("admin", func(t *testing.T) {
		client := servertest.HTTPSClient(cfg, false)
		defer client.CloseIdleConnections()
		for _, path := range []string{"/healthz", "/metrics"} {
			if resp, err := get(client, "https://"+p.adminAddr+path); err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s on the admin listener: %v %v, want 200", path, resp, err)
			}
		}
	})
	t.Run("plaintext refused", func(t *testing.T) {
		if code := listGames(dialGRPC(t, p.grpcAddr, insecure.NewCredentials())); code != codes.Unavailable {
			t.Errorf("plaintext gRPC: %v, want Unavailable", code)
		}
		for _, addr := range []string{p.httpAddr, p.adminAddr} {
			if resp, err := get(http.DefaultClient, "http://"+addr+"/healthz"); err == nil && resp.StatusCode != http.StatusBadRequest {
				t.Errorf("plaintext HTTP to %s: %d, want 400 or no answer", addr, resp.StatusCode)
			}
		}
	})
	t.Run("TLS 1.1 refused", func(t *testing.T) {
		old := &tls.Config{RootCAs: cfg.RootCAs, MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS11}
		for _, addr := range []string{p.grpcAddr, p.httpAddr, p.adminAddr} {
			conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 30 * time.Second}, "tcp", addr, old)
			if err == nil {
				conn.Close()
			}
			if err == nil || !strings.Contains(err.Error(), "protocol version") {
				t.Errorf("%s: a TLS 1.1 handshake: %v, want refused for its protocol version", addr, err)
			}
		}
	})
}

// TestMutualTLS runs rulebookd with a client CA and checks that its gRPC and HTTP listeners serve a client with a
// certificate of that CA, and refuse a client without a certificate or with one of another CA, while its admin
// listener (of the probes) serves a client without a certificate.
func TestMutualTLS(t *testing.T) {
	ca, other := servertest.NewCA(t, "test CA"), servertest.NewCA(t, "another CA")
	files := servertest.WriteTLSFiles(t, t.TempDir(), servertest.ServerPair(t, ca), ca)
	p := startProcess(t, tlsEnv(files, true))
	if serving, _ := p.logged("serving"); serving["mutualTLS"] != true {
		t.Errorf("serving line %v, want mutualTLS true", serving)
	}
	good, stranger := servertest.ClientPair(t, ca, "player"), servertest.ClientPair(t, other, "stranger")
	tests := []struct {
		name   string
		client *devcerts.Pair
		served bool
	}{
		{"no client certificate", nil, false},
		{"certificate of another CA", &stranger, false},
		{"certificate of the client CA", &good, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := servertest.ClientTLS(t, tt.client, ca)
			wantCode := map[bool]codes.Code{true: codes.OK, false: codes.Unavailable}[tt.served]
			if code := listGames(dialGRPC(t, p.grpcAddr, credentials.NewTLS(cfg))); code != wantCode {
				t.Errorf("gRPC: %v, want %v", code, wantCode)
			}
			client := servertest.HTTPSClient(cfg, false)
			defer client.CloseIdleConnections()
			resp, err := get(client, "https://"+p.httpAddr+"/v1/games")
			if served := err == nil && resp.StatusCode == http.StatusOK; served != tt.served {
				t.Errorf("REST: %v %v, want served: %v", resp, err, tt.served)
			}
		})
	}
	t.Run("admin without a client certificate", func(t *testing.T) {
		client := servertest.HTTPSClient(servertest.ClientTLS(t, nil, ca), false)
		defer client.CloseIdleConnections()
		if resp, err := get(client, "https://"+p.adminAddr+"/healthz"); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("GET /healthz on the admin listener: %v %v, want 200", resp, err)
		}
	})
}

// certLayout is how a rotation replaces the TLS files in a directory.
type certLayout struct {
	name string
	// files returns the paths the server is given, under dir.
	files func(dir string) servertest.TLSFiles
	// write puts pair and the client CA ca in place in dir, generation gen (1 first).
	write func(t *testing.T, dir string, gen int, pair devcerts.Pair, ca *devcerts.CA)
}

// certLayouts are a directory whose files are rewritten in place, and a Kubernetes Secret volume, whose files are
// links through the link ..data to a directory of the generation, which a rotation replaces with a rename.
var certLayouts = []certLayout{
	{
		name:  "files rewritten",
		files: func(dir string) servertest.TLSFiles { return tlsFilesIn(dir) },
		write: func(t *testing.T, dir string, _ int, pair devcerts.Pair, ca *devcerts.CA) {
			servertest.WriteTLSFiles(t, dir, pair, ca)
		},
	},
	{
		name:  "Secret volume",
		files: func(dir string) servertest.TLSFiles { return tlsFilesIn(dir) },
		write: func(t *testing.T, dir string, gen int, pair devcerts.Pair, ca *devcerts.CA) {
			data := "..gen" + strconv.Itoa(gen)
			if err := os.Mkdir(filepath.Join(dir, data), 0o700); err != nil {
				t.Fatal(err)
			}
			written := servertest.WriteTLSFiles(t, filepath.Join(dir, data), pair, ca)
			for _, path := range []string{written.Cert, written.Key, written.ClientCA} {
				name := filepath.Base(path)
				if err := os.Symlink(filepath.Join("..data", name), filepath.Join(dir, name)); err != nil && !os.IsExist(err) {
					t.Fatal(err)
				}
			}
			// As the kubelet swaps a Secret's files: a new link, renamed over ..data at once.
			if err := os.Symlink(data, filepath.Join(dir, "..data_tmp")); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
				t.Fatal(err)
			}
		},
	},
}

// tlsFilesIn returns the paths of the TLS files in dir as WriteTLSFiles names them.
func tlsFilesIn(dir string) servertest.TLSFiles {
	return servertest.TLSFiles{Cert: filepath.Join(dir, "tls.crt"), Key: filepath.Join(dir, "tls.key"), ClientCA: filepath.Join(dir, "ca.crt")}
}

// TestTLSRotation runs rulebookd with mutual TLS from files that then change, for each layout: first to a
// certificate whose key does not match it, which rulebookd logs and ignores (new connections still get the first
// certificate), then to a certificate and a client CA of a new CA. New connections, with a client certificate of
// the new CA, then get the new certificate (within a bounded number of attempts), while a gRPC connection and an
// HTTP/2 connection opened before, whose client trusts the first CA only, go on being served.
func TestTLSRotation(t *testing.T) {
	for _, layout := range certLayouts {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			first, second := servertest.NewCA(t, "first CA"), servertest.NewCA(t, "second CA")
			firstPair, secondPair := servertest.ServerPair(t, first), servertest.ServerPair(t, second)
			layout.write(t, dir, 1, firstPair, first)
			p := startProcess(t, tlsEnv(layout.files(dir), true))

			firstClient := servertest.ClientPair(t, first, "first")
			old := servertest.DialTLS(t, p.grpcAddr, p.httpAddr, servertest.ClientTLS(t, &firstClient, first))
			checkServed(t, old, "before the rotation")

			secondClient := servertest.ClientPair(t, second, "second")
			fresh := servertest.HTTPSClient(servertest.ClientTLS(t, &secondClient, first, second), false)
			fresh.Transport.(*http.Transport).DisableKeepAlives = true // each request a new connection
			firstCert := servedCert(t, servertest.HTTPSClient(servertest.ClientTLS(t, &firstClient, first), false), p.httpAddr)

			layout.write(t, dir, 2, devcerts.Pair{CertPEM: secondPair.CertPEM, KeyPEM: firstPair.KeyPEM}, first)
			awaitLogged(t, p, "TLS files changed but do not load")
			if got := servedCert(t, servertest.HTTPSClient(servertest.ClientTLS(t, &firstClient, first), false), p.httpAddr); !bytes.Equal(got, firstCert) {
				t.Error("after a broken pair, a new connection did not get the first certificate")
			}

			layout.write(t, dir, 3, secondPair, second)
			served := false
			for range 600 { // a minute at most: the files are read every second
				if resp, err := get(fresh, "https://"+p.httpAddr+"/v1/games"); err == nil && resp.StatusCode == http.StatusOK {
					served = bytes.Equal(resp.TLS.PeerCertificates[0].Raw, mustDER(t, secondPair))
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if !served {
				t.Fatal("a new connection with a client certificate of the second CA never got the second certificate")
			}
			if _, ok := p.logged("TLS files reloaded"); !ok {
				t.Error("rulebookd did not log the reload")
			}
			checkServed(t, old, "after the rotation, on the connections opened before")
		})
	}
}

// checkServed fails the test unless c's gRPC connection and HTTP client are served a call each.
func checkServed(t *testing.T, c *servertest.Client, when string) {
	t.Helper()
	if code := listGames(c.Conn); code != codes.OK {
		t.Errorf("%s: gRPC ListGames %v, want OK", when, code)
	}
	if code, body := c.Get(t, "/v1/games"); code != http.StatusOK {
		t.Errorf("%s: GET /v1/games %d %s, want 200", when, code, body)
	}
}

// servedCert returns the certificate that the HTTP listener at addr presents to client, on a connection of its own.
func servedCert(t *testing.T, client *http.Client, addr string) []byte {
	t.Helper()
	defer client.CloseIdleConnections()
	resp, err := get(client, "https://"+addr+"/healthz")
	if err != nil {
		t.Fatal(err)
	}
	return resp.TLS.PeerCertificates[0].Raw
}

// mustDER returns the DER bytes of pair's certificate.
func mustDER(t *testing.T, pair devcerts.Pair) []byte {
	t.Helper()
	cert, err := pair.TLS()
	if err != nil {
		t.Fatal(err)
	}
	return cert.Leaf.Raw
}

// awaitLogged fails the test unless p logs a line starting with msg within a bounded number of looks.
func awaitLogged(t *testing.T, p *process, msg string) {
	t.Helper()
	for range 600 {
		if _, ok := p.logged(msg); ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("rulebookd never logged %q", msg)
}
