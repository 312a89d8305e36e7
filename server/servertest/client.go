// Package servertest holds what the tests of rulebookd share, in process or against the binary: a client of both
// transports, the RulesService calls over each, whole games played through them, and checks of the refusals.
package servertest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/service/seal"
)

// Client calls a rulebookd over gRPC, with RPC or Conn, and over HTTP at URL.
type Client struct {
	RPC  rulebookv1grpc.RulesServiceClient
	Conn *grpc.ClientConn
	URL  string       // the HTTP base URL, such as "http://127.0.0.1:8080"
	HTTP *http.Client // what Post and Get send with: nil means http.DefaultClient
}

// Dial returns a client of the server with its gRPC listener at grpcAddr and HTTP at httpAddr (host:port), closed
// when the test ends.
func Dial(t testing.TB, grpcAddr, httpAddr string, opts ...grpc.DialOption) *Client {
	t.Helper()
	conn, err := grpc.NewClient(grpcAddr, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &Client{RPC: rulebookv1grpc.NewRulesServiceClient(conn), Conn: conn, URL: "http://" + httpAddr}
}

// CallContext is the context of one test call: bounded, so that a broken server fails the test instead of hanging.
func CallContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Post sends body as JSON to path and returns the status code and the response body.
func (c *Client) Post(t testing.TB, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(CallContext(t), http.MethodPost, c.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(t, req)
}

// Get fetches path and returns the status code and the response body.
func (c *Client) Get(t testing.TB, path string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(CallContext(t), http.MethodGet, c.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.do(t, req)
}

// do sends req with the client's HTTP client and returns the status code and the response body.
func (c *Client) do(t testing.TB, req *http.Request) (int, []byte) {
	t.Helper()
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, body := fetch(t, client, req)
	return resp.StatusCode, body
}

// Do sends req and reads the whole response: its status code and body.
func Do(t testing.TB, req *http.Request) (int, []byte) {
	t.Helper()
	resp, body := Fetch(t, req)
	return resp.StatusCode, body
}

// Fetch sends req and reads the whole response: the response (its body closed) and the body.
func Fetch(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	return fetch(t, http.DefaultClient, req)
}

// fetch sends req with client and reads the whole response: the response (its body closed) and the body.
func fetch(t testing.TB, client *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// PostProto sends req as JSON to path, expects 200 and decodes the answer into resp.
func (c *Client) PostProto(t testing.TB, path string, req, resp proto.Message) {
	t.Helper()
	body, err := protojson.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	code, out := c.Post(t, path, string(body))
	if code != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, code, out)
	}
	if err := protojson.Unmarshal(out, resp); err != nil {
		t.Fatalf("POST %s: decoding %s: %v", path, out, err)
	}
}

// Succeeded returns a check that fails the test if a call failed, and otherwise returns the call's result.
func Succeeded[R any](r R, err error) func(t testing.TB) R {
	return func(t testing.TB) R {
		t.Helper()
		if err != nil {
			t.Fatalf("call failed: %v", err)
		}
		return r
	}
}

// StateKeys is the key file (one key, "test") that test servers seal tokens with.
const StateKeys = "test:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n"

// Await fails the test unless ch delivers, or is closed, within a bound generous enough for a busy machine.
func Await[T any](t testing.TB, ch <-chan T, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("%s never happened", what)
	}
}

// Key returns a state key with id whose secret is 32 times the byte b.
func Key(t testing.TB, id string, b byte) seal.Key {
	t.Helper()
	key, err := seal.GenerateKey(id, bytes.NewReader(bytes.Repeat([]byte{b}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return key
}
