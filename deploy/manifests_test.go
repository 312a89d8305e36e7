// Package deploy checks the container image definition (Dockerfile) and the
// Kubernetes manifests (kubernetes/) of rulebookd without a cluster or a
// container engine: every manifest is decoded strictly into its typed API
// object, and the properties the deployment relies on are asserted.
package deploy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

const (
	// manifestDir holds the Kubernetes manifests, relative to this module.
	manifestDir = "kubernetes"
	// kustomizationFile is the kustomize entry point inside manifestDir.
	kustomizationFile = "kustomization.yaml"
	// certificateFile is the cert-manager Certificate inside manifestDir.
	certificateFile = "certificate.yaml"
	// protoDir holds the repository's .proto files, relative to this module.
	protoDir = "../proto"
	// serverDir holds rulebookd's main package, relative to this module.
	serverDir = "../cmd/rulebookd"

	// appLabelKey and appLabelValue identify rulebook's objects and pods.
	appLabelKey   = "app.kubernetes.io/name"
	appLabelValue = "rulebook"

	// grpcPortName, httpPortName and adminPortName name the container's ports.
	grpcPortName  = "grpc"
	httpPortName  = "http"
	adminPortName = "admin"

	// exitHeadroom is the least time terminationGracePeriodSeconds must leave
	// beyond RULEBOOK_DRAIN_DELAY + RULEBOOK_SHUTDOWN_TIMEOUT, for the server
	// to close what is left and exit before the kubelet's SIGKILL.
	exitHeadroom = 5 * time.Second
)

// decoder decodes YAML or JSON into the typed object registered for its
// apiVersion and kind, and fails on unknown, duplicate or mis-cased fields.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		appsv1.AddToScheme,
		autoscalingv2.AddToScheme,
		corev1.AddToScheme,
		networkingv1.AddToScheme,
		policyv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// kustomization is the subset of kustomize's Kustomization that
// kustomization.yaml may use; decoding it strictly rejects any other field.
type kustomization struct {
	APIVersion      string                     `json:"apiVersion"`
	Kind            string                     `json:"kind"`
	Resources       []string                   `json:"resources"`
	Labels          []kustomizeLabel           `json:"labels"`
	Images          []kustomizeImage           `json:"images"`
	SecretGenerator []kustomizeSecretGenerator `json:"secretGenerator"`
}

// kustomizeSecretGenerator is one entry of a Kustomization's
// secretGenerator, made from files only (never from literals, which would
// put a secret in the file).
type kustomizeSecretGenerator struct {
	Name  string   `json:"name"`
	Files []string `json:"files"`
}

// kustomizeLabel is one entry of a Kustomization's labels.
type kustomizeLabel struct {
	Pairs            map[string]string `json:"pairs"`
	IncludeSelectors bool              `json:"includeSelectors"`
}

// kustomizeImage is one entry of a Kustomization's images.
type kustomizeImage struct {
	Name    string `json:"name"`
	NewName string `json:"newName"`
	NewTag  string `json:"newTag"`
}

// certificate is the subset of cert-manager's Certificate (cert-manager.io/v1) that certificate.yaml may use;
// decoding it strictly rejects any other field. (cert-manager's Go API is not a dependency of this module.)
type certificate struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		SecretName  string   `json:"secretName"`
		Duration    string   `json:"duration"`
		RenewBefore string   `json:"renewBefore"`
		DNSNames    []string `json:"dnsNames"`
		Usages      []string `json:"usages"`
		PrivateKey  struct {
			Algorithm      string `json:"algorithm"`
			Size           int    `json:"size"`
			RotationPolicy string `json:"rotationPolicy"`
		} `json:"privateKey"`
		IssuerRef struct {
			Group string `json:"group"`
			Kind  string `json:"kind"`
			Name  string `json:"name"`
		} `json:"issuerRef"`
	} `json:"spec"`
}

// manifests is everything decoded from manifestDir.
type manifests struct {
	deployment    *appsv1.Deployment
	service       *corev1.Service
	hpa           *autoscalingv2.HorizontalPodAutoscaler
	pdb           *policyv1.PodDisruptionBudget
	networkPolicy *networkingv1.NetworkPolicy
	certificate   *certificate
	kustomization kustomization
	// resourceFiles are the YAML files other than kustomizationFile,
	// slash-separated and relative to manifestDir, sorted.
	resourceFiles []string
}

// container returns the Deployment's only container.
func (m *manifests) container(t *testing.T) *corev1.Container {
	t.Helper()
	cs := m.deployment.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		t.Fatalf("Deployment %s has %d containers, want 1", m.deployment.Name, len(cs))
	}
	return &cs[0]
}

// decodeObjects strictly decodes every non-empty YAML document in data.
func decodeObjects(data []byte) ([]runtime.Object, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []runtime.Object
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, err
		}
		asJSON, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if string(asJSON) == "null" { // only comments or blank
			continue
		}
		obj, _, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			return nil, err
		}
		objs = append(objs, obj)
	}
}

// loadManifests decodes every YAML file in manifestDir, failing the test on
// any file or object that is not decoded into one of the expected types.
func loadManifests(t *testing.T) *manifests {
	t.Helper()
	var m manifests
	err := filepath.WalkDir(manifestDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := filepath.Ext(path)
		if d.IsDir() || (ext != ".yaml" && ext != ".yml") {
			return nil
		}
		rel, err := filepath.Rel(manifestDir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == kustomizationFile {
			if err := yaml.UnmarshalStrict(data, &m.kustomization); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
			return nil
		}
		m.resourceFiles = append(m.resourceFiles, rel)
		if rel == certificateFile {
			m.certificate = &certificate{}
			if err := yaml.UnmarshalStrict(data, m.certificate); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
			return nil
		}
		objs, err := decodeObjects(data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if len(objs) == 0 {
			t.Errorf("%s: no Kubernetes object", rel)
		}
		for _, obj := range objs {
			if err := m.add(obj); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(m.resourceFiles)
	if m.deployment == nil || m.service == nil || m.hpa == nil || m.pdb == nil || m.networkPolicy == nil || m.certificate == nil {
		t.Fatalf("%s must hold one Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget, NetworkPolicy and Certificate (%s); got %d files %v",
			manifestDir, certificateFile, len(m.resourceFiles), m.resourceFiles)
	}
	return &m
}

// add records obj, refusing a second object of the same kind and any kind
// that rulebook does not deploy.
func (m *manifests) add(obj runtime.Object) error {
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	duplicate := false
	switch o := obj.(type) {
	case *appsv1.Deployment:
		duplicate, m.deployment = m.deployment != nil, o
	case *corev1.Service:
		duplicate, m.service = m.service != nil, o
	case *autoscalingv2.HorizontalPodAutoscaler:
		duplicate, m.hpa = m.hpa != nil, o
	case *policyv1.PodDisruptionBudget:
		duplicate, m.pdb = m.pdb != nil, o
	case *networkingv1.NetworkPolicy:
		duplicate, m.networkPolicy = m.networkPolicy != nil, o
	default:
		return errors.New("unexpected kind " + kind)
	}
	if duplicate {
		return errors.New("second " + kind)
	}
	return nil
}

func TestDecodeObjectsIsStrict(t *testing.T) {
	const header = "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n"
	tests := []struct {
		name    string
		yaml    string
		wantErr bool
	}{
		{name: "valid", yaml: header + "spec:\n  type: ClusterIP\n"},
		{name: "comment-only document skipped", yaml: "# nothing\n---\n" + header},
		{name: "unknown field", yaml: header + "spec:\n  typo: ClusterIP\n", wantErr: true},
		{name: "duplicate field", yaml: header + "spec:\n  type: ClusterIP\n  type: NodePort\n", wantErr: true},
		{name: "mis-cased field", yaml: header + "spec:\n  Type: ClusterIP\n", wantErr: true},
		{name: "unregistered kind", yaml: "apiVersion: v1\nkind: Nonsense\nmetadata:\n  name: x\n", wantErr: true},
		{name: "wrong apiVersion", yaml: "apiVersion: apps/v2\nkind: Deployment\nmetadata:\n  name: x\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := decodeObjects([]byte(tt.yaml))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("decoded %d objects, want an error", len(objs))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != 1 {
				t.Fatalf("decoded %d objects, want 1", len(objs))
			}
		})
	}
}

func TestKustomization(t *testing.T) {
	m := loadManifests(t)
	k := m.kustomization
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Errorf("%s is %s %s, want kustomize.config.k8s.io/v1beta1 Kustomization", kustomizationFile, k.APIVersion, k.Kind)
	}
	resources := slices.Sorted(slices.Values(k.Resources))
	if !slices.Equal(resources, m.resourceFiles) {
		t.Errorf("%s resources = %v, want every manifest once: %v", kustomizationFile, resources, m.resourceFiles)
	}
	if !slices.ContainsFunc(k.Labels, func(l kustomizeLabel) bool {
		return l.Pairs[appLabelKey] == appLabelValue && l.IncludeSelectors
	}) {
		t.Errorf("%s labels lack %s: %s with includeSelectors", kustomizationFile, appLabelKey, appLabelValue)
	}
	image := m.container(t).Image
	if !slices.ContainsFunc(k.Images, func(i kustomizeImage) bool { return i.Name == image }) {
		t.Errorf("%s images has no entry for the container image %q", kustomizationFile, image)
	}
}

func TestObjectsCarryAppLabel(t *testing.T) {
	m := loadManifests(t)
	for _, obj := range []metav1.Object{m.deployment, m.service, m.hpa, m.pdb, m.networkPolicy, &m.deployment.Spec.Template} {
		if got := obj.GetLabels()[appLabelKey]; got != appLabelValue {
			t.Errorf("%T %q: label %s = %q, want %q", obj, obj.GetName(), appLabelKey, got, appLabelValue)
		}
	}
}

func TestDeploymentSecurity(t *testing.T) {
	m := loadManifests(t)
	pod := m.deployment.Spec.Template.Spec
	c := m.container(t)
	psc, csc := pod.SecurityContext, c.SecurityContext
	if psc == nil || csc == nil {
		t.Fatal("pod and container securityContext must both be set")
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"pod runAsNonRoot", isTrue(psc.RunAsNonRoot)},
		{"pod runAsUser non-zero", psc.RunAsUser != nil && *psc.RunAsUser != 0},
		{"pod seccompProfile RuntimeDefault", psc.SeccompProfile != nil && psc.SeccompProfile.Type == corev1.SeccompProfileTypeRuntimeDefault},
		{"container allowPrivilegeEscalation false", csc.AllowPrivilegeEscalation != nil && !*csc.AllowPrivilegeEscalation},
		{"container readOnlyRootFilesystem", isTrue(csc.ReadOnlyRootFilesystem)},
		{"container not privileged", !isTrue(csc.Privileged)},
		{"container runAsNonRoot not overridden", csc.RunAsNonRoot == nil || *csc.RunAsNonRoot},
		{"container runAsUser not overridden", csc.RunAsUser == nil},
		{"container seccompProfile not overridden", csc.SeccompProfile == nil},
		{"capabilities drop ALL, add none", csc.Capabilities != nil && slices.Equal(csc.Capabilities.Drop, []corev1.Capability{"ALL"}) && len(csc.Capabilities.Add) == 0},
		{"no service account token", pod.AutomountServiceAccountToken != nil && !*pod.AutomountServiceAccountToken},
		{"no service links (they would add RULEBOOK_* variables)", pod.EnableServiceLinks != nil && !*pod.EnableServiceLinks},
		{"no host namespaces", !pod.HostNetwork && !pod.HostPID && !pod.HostIPC},
	}
	for _, check := range checks {
		if !check.ok {
			t.Errorf("Deployment %s: want %s", m.deployment.Name, check.name)
		}
	}
}

func TestDeploymentScheduling(t *testing.T) {
	m := loadManifests(t)
	d := m.deployment
	podLabels := labels.Set(d.Spec.Template.Labels)
	if sel := mustSelector(t, d.Spec.Selector); sel.Empty() || !sel.Matches(podLabels) {
		t.Errorf("Deployment selector %v must be non-empty and match its pod labels %v", sel, podLabels)
	}
	if d.Spec.Replicas != nil {
		t.Errorf("Deployment sets replicas %d; leave it unset, the HorizontalPodAutoscaler owns it", *d.Spec.Replicas)
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru == nil || ru.MaxUnavailable == nil || ru.MaxUnavailable.String() != "0" {
		t.Error("Deployment rollingUpdate.maxUnavailable must be 0, so a rollout never drops below the current capacity")
	}
	spread := d.Spec.Template.Spec.TopologySpreadConstraints
	if len(spread) == 0 {
		t.Error("Deployment has no topologySpreadConstraints")
	}
	for _, c := range spread {
		if sel := mustSelector(t, c.LabelSelector); sel.Empty() || !sel.Matches(podLabels) {
			t.Errorf("topology spread on %s: labelSelector %v must match the pod labels %v", c.TopologyKey, sel, podLabels)
		}
	}
}

func TestDeploymentResources(t *testing.T) {
	c := loadManifests(t).container(t)
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, hasReq := c.Resources.Requests[name]
		lim, hasLim := c.Resources.Limits[name]
		switch {
		case !hasReq || !hasLim:
			t.Errorf("%s: want both a request and a limit", name)
		case req.Sign() <= 0:
			t.Errorf("%s request %s must be positive", name, req.String())
		case req.Cmp(lim) > 0:
			t.Errorf("%s request %s exceeds limit %s", name, req.String(), lim.String())
		}
	}
}

func TestDeploymentEnvAndShutdown(t *testing.T) {
	m := loadManifests(t)
	c := m.container(t)
	known := serverEnvNames(t)
	env := map[string]string{}
	for _, e := range c.Env {
		if e.ValueFrom != nil {
			t.Errorf("env %s uses valueFrom; want a literal value", e.Name)
		}
		if strings.HasPrefix(e.Name, "RULEBOOK_") && !slices.Contains(known, e.Name) {
			t.Errorf("env %s is not read by %s (which knows %v)", e.Name, serverDir, known)
		}
		env[e.Name] = e.Value
	}
	for _, tt := range []struct{ env, port string }{
		{"RULEBOOK_GRPC_ADDR", grpcPortName},
		{"RULEBOOK_HTTP_ADDR", httpPortName},
		{"RULEBOOK_ADMIN_ADDR", adminPortName},
	} {
		_, port, err := net.SplitHostPort(env[tt.env])
		if err != nil {
			t.Errorf("%s=%q: %v", tt.env, env[tt.env], err)
			continue
		}
		if want := strconv.Itoa(int(containerPort(t, c, tt.port))); port != want {
			t.Errorf("%s listens on port %s, but the %s container port is %s", tt.env, port, tt.port, want)
		}
	}
	if got := env["RULEBOOK_LOG_FORMAT"]; got != "json" {
		t.Errorf("RULEBOOK_LOG_FORMAT = %q, want json", got)
	}
	var shutdown time.Duration
	for _, name := range []string{"RULEBOOK_DRAIN_DELAY", "RULEBOOK_SHUTDOWN_TIMEOUT"} {
		d, err := time.ParseDuration(env[name])
		if err != nil || d <= 0 {
			t.Fatalf("%s=%q must be a positive Go duration (err %v)", name, env[name], err)
		}
		shutdown += d
	}
	grace := m.deployment.Spec.Template.Spec.TerminationGracePeriodSeconds
	if grace == nil {
		t.Fatal("terminationGracePeriodSeconds is unset")
	}
	if g := time.Duration(*grace) * time.Second; g < shutdown+exitHeadroom {
		t.Errorf("terminationGracePeriodSeconds %s must be at least RULEBOOK_DRAIN_DELAY + RULEBOOK_SHUTDOWN_TIMEOUT (%s) + %s", g, shutdown, exitHeadroom)
	}
}

// TestScrapeAnnotations checks that the pods ask to be scraped on the admin port, at /metrics.
func TestScrapeAnnotations(t *testing.T) {
	m := loadManifests(t)
	annotations := m.deployment.Spec.Template.Annotations
	want := map[string]string{
		"prometheus.io/scrape": "true",
		"prometheus.io/port":   strconv.Itoa(int(containerPort(t, m.container(t), adminPortName))),
		"prometheus.io/path":   "/metrics",
	}
	for k, v := range want {
		if annotations[k] != v {
			t.Errorf("pod annotation %s = %q, want %q", k, annotations[k], v)
		}
	}
}

// TestProbesUseAdminHealthz checks that every probe asks GET /healthz on the admin port over HTTPS: the kubelet's
// gRPC probes cannot speak TLS, and its HTTPS probes present no client certificate, which the admin port never
// requires. The readiness probe asks for a service of the API, the others for the server's overall health.
func TestProbesUseAdminHealthz(t *testing.T) {
	m := loadManifests(t)
	c := m.container(t)
	adminPort := containerPort(t, c, adminPortName)
	services := protoServices(t)
	tests := []struct {
		name  string
		probe *corev1.Probe
		// wantAPIService requires the probe to check a service declared in
		// proto/ rather than the server's overall health ("").
		wantAPIService bool
	}{
		{name: "startupProbe", probe: c.StartupProbe},
		{name: "livenessProbe", probe: c.LivenessProbe},
		{name: "readinessProbe", probe: c.ReadinessProbe, wantAPIService: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.probe
			if p == nil {
				t.Fatal("missing")
			}
			get := p.HTTPGet
			if get == nil || p.GRPC != nil || p.TCPSocket != nil || p.Exec != nil {
				t.Fatal("want an httpGet probe and no other handler")
			}
			if port := targetPort(t, c, get.Port); get.Scheme != corev1.URISchemeHTTPS || port != adminPort {
				t.Errorf("probes %s port %d, want HTTPS on the %s container port %d", get.Scheme, port, adminPortName, adminPort)
			}
			path, query, _ := strings.Cut(get.Path, "?")
			service := strings.TrimPrefix(query, "service=")
			switch {
			case path != "/healthz" || service == query && query != "":
				t.Errorf("path %q, want /healthz, with ?service=SERVICE or nothing", get.Path)
			case tt.wantAPIService && service == "":
				t.Errorf("checks overall health; want one of the services in %s: %v", protoDir, services)
			case service != "" && !slices.Contains(services, service):
				t.Errorf("checks service %q, which %s does not declare (%v)", service, protoDir, services)
			}
		})
	}
}

// TestTLSFromCertificate checks that every port serves TLS from the Secret that certificate.yaml has cert-manager
// renew, mounted so that its renewals reach the running pods: a whole directory (a subPath mount never sees an
// update), read-only; and that the Certificate is for the Service's name and a server, renewed with a new key well
// before it ends.
func TestTLSFromCertificate(t *testing.T) {
	m := loadManifests(t)
	cert := m.certificate
	if cert.APIVersion != "cert-manager.io/v1" || cert.Kind != "Certificate" {
		t.Errorf("%s is %s %s, want cert-manager.io/v1 Certificate", certificateFile, cert.APIVersion, cert.Kind)
	}
	spec := cert.Spec
	if !slices.Contains(spec.DNSNames, m.service.Name) {
		t.Errorf("dnsNames %v lack the Service's name %q", spec.DNSNames, m.service.Name)
	}
	if !slices.Contains(spec.Usages, "server auth") {
		t.Errorf("usages %v lack server auth", spec.Usages)
	}
	if spec.PrivateKey.RotationPolicy != "Always" {
		t.Errorf("privateKey.rotationPolicy %q, want Always (a new key at each renewal)", spec.PrivateKey.RotationPolicy)
	}
	duration, errD := time.ParseDuration(spec.Duration)
	renew, errR := time.ParseDuration(spec.RenewBefore)
	if errD != nil || errR != nil || renew <= 0 || renew >= duration/2 || renew < 7*24*time.Hour {
		t.Errorf("duration %q, renewBefore %q: want a renewal at least a week before the end, in its second half", spec.Duration, spec.RenewBefore)
	}

	pod := m.deployment.Spec.Template.Spec
	var volume string
	for _, v := range pod.Volumes {
		if v.Secret != nil && v.Secret.SecretName == spec.SecretName {
			volume = v.Name
		}
	}
	if volume == "" {
		t.Fatalf("no volume of the Certificate's Secret %q", spec.SecretName)
	}
	c := m.container(t)
	var dir string
	for _, vm := range c.VolumeMounts {
		if vm.Name != volume {
			continue
		}
		if vm.SubPath != "" || vm.SubPathExpr != "" || !vm.ReadOnly {
			t.Errorf("volume %s is mounted with a subPath or writable; want the whole directory, read-only", volume)
		}
		dir = vm.MountPath
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	for name, file := range map[string]string{"RULEBOOK_TLS_CERT_FILE": "tls.crt", "RULEBOOK_TLS_KEY_FILE": "tls.key"} {
		if want := path.Join(dir, file); dir == "" || env[name] != want {
			t.Errorf("%s=%q, want %q, from the mounted Secret", name, env[name], want)
		}
	}
	if ca, ok := env["RULEBOOK_TLS_CLIENT_CA_FILE"]; ok && ca != path.Join(dir, "ca.crt") {
		t.Errorf("RULEBOOK_TLS_CLIENT_CA_FILE=%q, want the Secret's ca.crt", ca)
	}
	if scheme := m.deployment.Spec.Template.Annotations["prometheus.io/scheme"]; scheme != "https" {
		t.Errorf("prometheus.io/scheme %q, want https: the admin port serves TLS", scheme)
	}
}

func TestServiceExposesContainerPorts(t *testing.T) {
	m := loadManifests(t)
	svc := m.service
	c := m.container(t)
	if svc.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("Service type %q, want ClusterIP", svc.Spec.Type)
	}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	if sel.Empty() || !sel.Matches(labels.Set(m.deployment.Spec.Template.Labels)) {
		t.Errorf("Service selector %v must be non-empty and match the Deployment's pods", sel)
	}
	tests := []struct {
		name, appProtocol string
	}{
		{grpcPortName, "grpc"},
		{httpPortName, "http"},
	}
	if len(svc.Spec.Ports) != len(tests) {
		t.Errorf("Service has %d ports, want %d", len(svc.Spec.Ports), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := slices.IndexFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == tt.name })
			if i < 0 {
				t.Fatal("Service has no such port")
			}
			sp := svc.Spec.Ports[i]
			want := containerPort(t, c, tt.name)
			if got := targetPort(t, c, sp.TargetPort); got != want || sp.Port != want {
				t.Errorf("Service port %d -> target %d, want %d -> container port %d", sp.Port, got, want, want)
			}
			if sp.AppProtocol == nil || *sp.AppProtocol != tt.appProtocol {
				t.Errorf("appProtocol must be %q", tt.appProtocol)
			}
		})
	}
}

func TestHPATargetsDeployment(t *testing.T) {
	m := loadManifests(t)
	h := m.hpa.Spec
	want := autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: m.deployment.Name}
	if h.ScaleTargetRef != want {
		t.Errorf("scaleTargetRef = %+v, want %+v", h.ScaleTargetRef, want)
	}
	if h.MinReplicas == nil || *h.MinReplicas < 2 {
		t.Error("minReplicas must be at least 2, so one pod can fail or be evicted without an outage")
	} else if h.MaxReplicas < *h.MinReplicas {
		t.Errorf("maxReplicas %d < minReplicas %d", h.MaxReplicas, *h.MinReplicas)
	}
	cpu := slices.IndexFunc(h.Metrics, func(ms autoscalingv2.MetricSpec) bool {
		return ms.Type == autoscalingv2.ResourceMetricSourceType && ms.Resource != nil &&
			ms.Resource.Name == corev1.ResourceCPU &&
			ms.Resource.Target.Type == autoscalingv2.UtilizationMetricType &&
			ms.Resource.Target.AverageUtilization != nil
	})
	if cpu < 0 {
		t.Error("no CPU utilization metric")
	}
	if _, ok := m.container(t).Resources.Requests[corev1.ResourceCPU]; !ok {
		t.Error("CPU utilization needs a CPU request on the container")
	}
}

func TestPDBCoversDeployment(t *testing.T) {
	m := loadManifests(t)
	p := m.pdb.Spec
	if sel := mustSelector(t, p.Selector); sel.Empty() || !sel.Matches(labels.Set(m.deployment.Spec.Template.Labels)) {
		t.Errorf("PodDisruptionBudget selector %v must be non-empty and match the Deployment's pods", sel)
	}
	minReplicas := int32(1)
	if m.hpa.Spec.MinReplicas != nil {
		minReplicas = *m.hpa.Spec.MinReplicas
	}
	switch {
	case (p.MinAvailable == nil) == (p.MaxUnavailable == nil):
		t.Error("set exactly one of minAvailable and maxUnavailable")
	case p.MaxUnavailable != nil:
		if v := intOrPercent(t, p.MaxUnavailable, minReplicas); v < 1 {
			t.Errorf("maxUnavailable %s blocks every voluntary eviction", p.MaxUnavailable.String())
		}
	default:
		if v := intOrPercent(t, p.MinAvailable, minReplicas); v >= minReplicas {
			t.Errorf("minAvailable %s blocks every eviction at minReplicas %d", p.MinAvailable.String(), minReplicas)
		}
	}
}

// isTrue reports whether b is set and true.
func isTrue(b *bool) bool { return b != nil && *b }

// mustSelector converts a label selector, failing the test if it is invalid.
func mustSelector(t *testing.T, ls *metav1.LabelSelector) labels.Selector {
	t.Helper()
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// containerPort returns the number of c's port called name.
func containerPort(t *testing.T, c *corev1.Container, name string) int32 {
	t.Helper()
	i := slices.IndexFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.Name == name })
	if i < 0 {
		t.Fatalf("container %s has no port named %s", c.Name, name)
	}
	return c.Ports[i].ContainerPort
}

// targetPort resolves a Service targetPort, by name or number, to one of c's
// ports.
func targetPort(t *testing.T, c *corev1.Container, tp intstr.IntOrString) int32 {
	t.Helper()
	if tp.Type == intstr.String {
		return containerPort(t, c, tp.StrVal)
	}
	if !slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.ContainerPort == tp.IntVal }) {
		t.Fatalf("targetPort %d is not a port of container %s", tp.IntVal, c.Name)
	}
	return tp.IntVal
}

// intOrPercent resolves a count or a percentage of total, rounding up as the
// disruption controller does.
func intOrPercent(t *testing.T, v *intstr.IntOrString, total int32) int32 {
	t.Helper()
	n, err := intstr.GetScaledValueFromIntOrPercent(v, int(total), true)
	if err != nil {
		t.Fatal(err)
	}
	return int32(n)
}

// serverEnvNames lists the RULEBOOK_* environment variables named in the
// non-test Go files of the server's main package.
func serverEnvNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(serverDir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (err %v)", serverDir, err)
	}
	envRE := regexp.MustCompile(`"(RULEBOOK_[A-Z0-9_]+)"`)
	var names []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range envRE.FindAllSubmatch(src, -1) {
			names = append(names, string(m[1]))
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// protoServices lists the fully qualified gRPC services declared in protoDir.
func protoServices(t *testing.T) []string {
	t.Helper()
	pkgRE := regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)
	svcRE := regexp.MustCompile(`(?m)^\s*service\s+(\w+)\s*\{`)
	var services []string
	err := filepath.WalkDir(protoDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".proto" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg := ""
		if m := pkgRE.FindSubmatch(src); m != nil {
			pkg = string(m[1]) + "."
		}
		for _, m := range svcRE.FindAllSubmatch(src, -1) {
			services = append(services, pkg+string(m[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(services) == 0 {
		t.Fatalf("no gRPC service declared under %s", protoDir)
	}
	return services
}
