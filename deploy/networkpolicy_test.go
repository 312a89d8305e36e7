package deploy

import (
	"net"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// monitoringNamespace is the namespace of Prometheus, the only one that may reach the admin port.
const monitoringNamespace = "monitoring"

// TestNetworkPolicy checks who may reach rulebookd's pods, as the NetworkPolicy's rules decide: the API ports from
// every namespace, the admin port from the monitoring namespace only; and that the admin port listens on every
// interface of the pod, which rulebookd's default (the loopback interface) would not.
func TestNetworkPolicy(t *testing.T) {
	m := loadManifests(t)
	np, c := m.networkPolicy, m.container(t)
	selector, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
	if err != nil || np.Spec.PodSelector.Size() == 0 || !selector.Matches(labels.Set(m.deployment.Spec.Template.Labels)) {
		t.Errorf("NetworkPolicy %s selects %v, want rulebook's pods (err %v)", np.Name, np.Spec.PodSelector, err)
	}
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) {
		t.Errorf("NetworkPolicy %s policyTypes %v, want Ingress", np.Name, np.Spec.PolicyTypes)
	}
	for _, tt := range []struct {
		port      string
		namespace string
		want      bool
	}{
		{grpcPortName, "default", true},
		{grpcPortName, "games", true},
		{httpPortName, "ingress-nginx", true},
		{httpPortName, monitoringNamespace, true},
		{adminPortName, monitoringNamespace, true},
		{adminPortName, "default", false},
		{adminPortName, "games", false},
		{adminPortName, "kube-system", false},
	} {
		port := corev1.ContainerPort{Name: tt.port, ContainerPort: containerPort(t, c, tt.port), Protocol: corev1.ProtocolTCP}
		if got := admits(t, np, port, tt.namespace); got != tt.want {
			t.Errorf("port %s from namespace %s: admitted %v, want %v", tt.port, tt.namespace, got, tt.want)
		}
	}
	for _, e := range c.Env {
		if e.Name == "RULEBOOK_ADMIN_ADDR" {
			if host, _, err := net.SplitHostPort(e.Value); err != nil || host != "" {
				t.Errorf("RULEBOOK_ADMIN_ADDR=%q, want every interface (\":port\"): Prometheus scrapes it from another pod", e.Value)
			}
			return
		}
	}
	t.Error("RULEBOOK_ADMIN_ADDR is unset: rulebookd's default, the loopback interface, cannot be scraped")
}

// admits reports whether np lets any pod of namespace (labelled by its name, as Kubernetes labels every namespace)
// reach port. An address block admits everyone, as far as this test can tell.
func admits(t *testing.T, np *networkingv1.NetworkPolicy, port corev1.ContainerPort, namespace string) bool {
	t.Helper()
	nsLabels := labels.Set{"kubernetes.io/metadata.name": namespace}
	for _, rule := range np.Spec.Ingress {
		if !rulePorts(rule.Ports, port) {
			continue
		}
		if len(rule.From) == 0 {
			return true
		}
		for _, peer := range rule.From {
			switch {
			case peer.IPBlock != nil:
				return true
			case peer.NamespaceSelector == nil: // the policy's own namespace
				continue
			}
			selector, err := metav1.LabelSelectorAsSelector(peer.NamespaceSelector)
			if err != nil {
				t.Fatalf("NetworkPolicy %s: %v", np.Name, err)
			}
			if selector.Matches(nsLabels) {
				return true
			}
		}
	}
	return false
}

// rulePorts reports whether ports, those of an ingress rule, take port: none means all of them.
func rulePorts(ports []networkingv1.NetworkPolicyPort, port corev1.ContainerPort) bool {
	if len(ports) == 0 {
		return true
	}
	return slices.ContainsFunc(ports, func(p networkingv1.NetworkPolicyPort) bool {
		protocol := corev1.ProtocolTCP
		if p.Protocol != nil {
			protocol = *p.Protocol
		}
		if protocol != port.Protocol || p.Port == nil {
			return protocol == port.Protocol
		}
		return p.Port.String() == port.Name || p.Port.IntValue() == int(port.ContainerPort)
	})
}
