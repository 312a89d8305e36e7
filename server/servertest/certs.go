package servertest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net/url"
	"testing"
	"time"
)

// CA is a certificate authority made by a test, valid for an hour around its making.
type CA struct {
	Cert *x509.Certificate
	Pool *x509.CertPool // of Cert alone
	key  *ecdsa.PrivateKey
}

// NewCA makes a certificate authority.
func NewCA(t testing.TB) CA {
	t.Helper()
	tmpl := &x509.Certificate{Subject: pkix.Name{CommonName: "test CA"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	ca := CA{}
	cert := issue(t, tmpl, nil, nil)
	ca.Cert, ca.key = cert.Leaf, cert.PrivateKey.(*ecdsa.PrivateKey)
	ca.Pool = x509.NewCertPool()
	ca.Pool.AddCert(ca.Cert)
	return ca
}

// Issue returns a certificate of the CA for tmpl's names and usage, with a key of its own, its Leaf set.
func (ca CA) Issue(t testing.TB, tmpl *x509.Certificate) tls.Certificate {
	t.Helper()
	return issue(t, tmpl, ca.Cert, ca.key)
}

// ClientTemplate is the template of a client certificate of common name cn and URI SANs uris.
func ClientTemplate(t testing.TB, cn string, uris ...string) *x509.Certificate {
	t.Helper()
	tmpl := &x509.Certificate{Subject: pkix.Name{CommonName: cn}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	for _, u := range uris {
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		tmpl.URIs = append(tmpl.URIs, parsed)
	}
	return tmpl
}

// issue returns the certificate of tmpl, with a new key, signed by parent's key (self-signed if parent is nil).
func issue(t testing.TB, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber, tmpl.NotBefore, tmpl.NotAfter = serial, time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
}
