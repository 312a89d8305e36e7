// Package devcerts makes certificates for tests and trials on one machine, with crypto/x509: a certificate authority
// and the server and client certificates it signs (ECDSA P-256, valid for a day). They are not for production, where
// certificates come from the operator's CA (cert-manager, say: see deploy/kubernetes).
package devcerts

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// validity is how long a certificate made here is valid, from an hour ago (clocks differ a little).
const validity = 24 * time.Hour

// CA is a certificate authority that signs certificates.
type CA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	// CertPEM is the CA's certificate, PEM-encoded: what clients trust (the server's CA) or the server does (a
	// client CA).
	CertPEM []byte
}

// Pair is a certificate and its private key, PEM-encoded.
type Pair struct {
	CertPEM, KeyPEM []byte
}

// NewCA makes a certificate authority named name.
func NewCA(name string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	template := &x509.Certificate{
		Subject:               pkix.Name{CommonName: name},
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	pair, cert, err := sign(template, nil, key, key)
	if err != nil {
		return nil, err
	}
	return &CA{cert: cert, key: key, CertPEM: pair.CertPEM}, nil
}

// Server signs a server certificate for hosts, each a DNS name or an IP address.
func (ca *CA) Server(hosts ...string) (Pair, error) {
	template := &x509.Certificate{ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	if len(hosts) > 0 {
		template.Subject.CommonName = hosts[0]
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			template.IPAddresses = append(template.IPAddresses, ip)
		} else {
			template.DNSNames = append(template.DNSNames, h)
		}
	}
	return ca.issue(template)
}

// Client signs a client certificate whose subject's common name is name, with uris (such as a SPIFFE ID,
// "spiffe://example.org/arena") as URI names.
func (ca *CA) Client(name string, uris ...string) (Pair, error) {
	template := &x509.Certificate{Subject: pkix.Name{CommonName: name},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	for _, u := range uris {
		parsed, err := url.Parse(u)
		if err != nil {
			return Pair{}, err
		}
		template.URIs = append(template.URIs, parsed)
	}
	return ca.issue(template)
}

// Pool returns a pool that holds the CA's certificate only.
func (ca *CA) Pool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	return pool
}

// issue signs template, a leaf certificate, with a new key.
func (ca *CA) issue(template *x509.Certificate) (Pair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Pair{}, err
	}
	template.KeyUsage = x509.KeyUsageDigitalSignature
	pair, _, err := sign(template, ca.cert, key, ca.key)
	return pair, err
}

// sign signs template, the certificate of key, by signer as parent (template itself if parent is nil), with a
// random serial number and the package's validity.
func sign(template, parent *x509.Certificate, key, signer *ecdsa.PrivateKey) (Pair, *x509.Certificate, error) {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return Pair{}, nil, err
	}
	template.SerialNumber = serial
	template.NotBefore = time.Now().Add(-time.Hour)
	template.NotAfter = template.NotBefore.Add(validity)
	if parent == nil {
		parent = template
	}
	der, err := x509.CreateCertificate(rand.Reader, template, parent, &key.PublicKey, signer)
	if err != nil {
		return Pair{}, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return Pair{}, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return Pair{}, nil, err
	}
	return Pair{
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}, cert, nil
}

// TLS returns the pair as a certificate for crypto/tls.
func (p Pair) TLS() (tls.Certificate, error) {
	return tls.X509KeyPair(p.CertPEM, p.KeyPEM)
}

// Write writes the pair into dir as name.crt and name.key (the key readable by its owner only), replacing
// files of those names.
func (p Pair) Write(dir, name string) error {
	if err := os.WriteFile(filepath.Join(dir, name+".crt"), p.CertPEM, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".key"), p.KeyPEM, 0o600); err != nil {
		return fmt.Errorf("writing %s's key: %w", name, err)
	}
	return nil
}
