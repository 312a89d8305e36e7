package deploy

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	"sigs.k8s.io/yaml"
)

const (
	// alertsPath is the Prometheus rule file of rulebookd's alerts, relative to this module.
	alertsPath = "prometheus/alerts.yaml"
	// alertTestsPath holds the promtool unit tests of alertsPath.
	alertTestsPath = "prometheus/alerts_test.yaml"
	// metricsPath lists the metric families that rulebookd serves, one a line.
	metricsPath = "prometheus/metrics.txt"
	// dashboardPath is the Grafana dashboard of rulebookd.
	dashboardPath = "grafana/rulebook.json"

	// scrapeJob is the job label of rulebookd's targets, which every alert selects.
	scrapeJob = "rulebook"
	// datasourceVar is the dashboard variable naming its Prometheus data source.
	datasourceVar = "datasource"
	// jobVar and instanceVar are the dashboard variables that every query filters on.
	jobVar, instanceVar = "job", "instance"
	// minSchemaVersion is the oldest dashboard schema accepted, that of Grafana 11.0.
	minSchemaVersion = 39

	// prometheusModule provides the rule and PromQL parsers, and promtool.
	prometheusModule = "github.com/prometheus/prometheus"
	// promtoolPackage is promtool's main package in prometheusModule.
	promtoolPackage = prometheusModule + "/cmd/promtool"
	// promtoolTags leave promtool's service discovery plugins out of its build:
	// rule unit tests need none, and they are most of its dependencies.
	promtoolTags = "remove_all_sd"
)

var (
	// promql parses PromQL as Prometheus does by default.
	promql = parser.NewParser(parser.Options{})

	// severities are the values an alert's severity label may take.
	severities = []string{"critical", "warning"}

	// scrapeMetrics are the series Prometheus itself records for every target.
	scrapeMetrics = []string{"up", "scrape_duration_seconds", "scrape_samples_scraped",
		"scrape_samples_post_metric_relabeling", "scrape_series_added"}

	// histogramSuffixes end the names of a histogram's series, after its family name.
	histogramSuffixes = []string{"_bucket", "_count", "_sum"}

	// grafanaIntervals replaces Grafana's interval variables, which stand where
	// PromQL needs a duration, by one.
	grafanaIntervals = strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h")

	// labelValuesRE matches a Grafana query variable's label_values(SELECTOR, LABEL).
	labelValuesRE = regexp.MustCompile(`^label_values\((.+),\s*[A-Za-z_][A-Za-z0-9_]*\)$`)
)

// metricsList reads metricsPath: its header comment line and the names after it.
func metricsList(t *testing.T) (header string, names []string) {
	t.Helper()
	text, err := os.ReadFile(metricsPath)
	if err != nil {
		t.Fatal(err)
	}
	header, rest, _ := strings.Cut(string(text), "\n")
	return header, strings.Fields(rest)
}

// metricFamilies returns the set of names in metricsPath.
func metricFamilies(t *testing.T) map[string]bool {
	t.Helper()
	_, names := metricsList(t)
	families := map[string]bool{}
	for _, name := range names {
		families[name] = true
	}
	return families
}

// knownMetric reports whether the series name is in families, itself or as a
// series (_bucket, _count, _sum) of a histogram or summary family, or is one
// that Prometheus records for every target.
func knownMetric(name string, families map[string]bool) bool {
	if families[name] || slices.Contains(scrapeMetrics, name) {
		return true
	}
	return slices.ContainsFunc(histogramSuffixes, func(suffix string) bool {
		base, ok := strings.CutSuffix(name, suffix)
		return ok && families[base]
	})
}

// selectors returns the vector selectors of expr, those inside range
// selectors and subqueries included.
func selectors(expr parser.Expr) []*parser.VectorSelector {
	var vs []*parser.VectorSelector
	parser.Inspect(expr, func(n parser.Node, _ []parser.Node) error {
		if v, ok := n.(*parser.VectorSelector); ok {
			vs = append(vs, v)
		}
		return nil
	})
	return vs
}

// hasMatcher reports whether v has the matcher name, of type mt, for value.
func hasMatcher(v *parser.VectorSelector, mt labels.MatchType, name, value string) bool {
	return slices.ContainsFunc(v.LabelMatchers, func(m *labels.Matcher) bool {
		return m.Type == mt && m.Name == name && m.Value == value
	})
}

// checkExpr parses expr and checks that each of its selectors names a known
// metric and has every matcher in want.
func checkExpr(t *testing.T, expr string, families map[string]bool, want ...*labels.Matcher) {
	t.Helper()
	parsed, err := promql.ParseExpr(expr)
	if err != nil {
		t.Errorf("%q does not parse: %v", expr, err)
		return
	}
	for _, v := range selectors(parsed) {
		if v.Name == "" {
			t.Errorf("selector %s names no metric", v)
		} else if !knownMetric(v.Name, families) {
			t.Errorf("%s is not in %s", v.Name, metricsPath)
		}
		for _, m := range want {
			if !hasMatcher(v, m.Type, m.Name, m.Value) {
				t.Errorf("selector %s lacks %s", v, m)
			}
		}
	}
}

func TestMetricsList(t *testing.T) {
	header, names := metricsList(t)
	if !strings.HasPrefix(header, "# ") || !strings.Contains(header, "/metrics") {
		t.Errorf("%s: header %q is not a comment saying that the file lists what /metrics serves", metricsPath, header)
	}
	if len(names) == 0 {
		t.Fatalf("%s lists no metric", metricsPath)
	}
	if !slices.IsSorted(names) {
		t.Errorf("%s is not sorted", metricsPath)
	}
	for i, name := range names {
		checks := []struct {
			name string
			ok   bool
		}{
			{"a metric name", model.LegacyValidation.IsValidMetricName(name)},
			{"listed once", i == 0 || names[i-1] != name},
			{"a family name, without the suffix of a histogram's series (" + strings.Join(histogramSuffixes, ", ") + ")",
				!slices.ContainsFunc(histogramSuffixes, func(suffix string) bool { return strings.HasSuffix(name, suffix) })},
		}
		for _, c := range checks {
			if !c.ok {
				t.Errorf("%s: %q is not %s", metricsPath, name, c.name)
			}
		}
	}
}

// alertRules parses alertsPath as Prometheus and `promtool check rules` do,
// failing the test on any error, and returns its rules.
func alertRules(t *testing.T) []rulefmt.Rule {
	t.Helper()
	groups, errs := rulefmt.ParseFile(alertsPath, false, model.LegacyValidation, promql, slog.New(slog.DiscardHandler))
	for _, err := range errs {
		t.Error(err)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
	var rules []rulefmt.Rule
	for _, g := range groups.Groups {
		rules = append(rules, g.Rules...)
	}
	if len(rules) == 0 {
		t.Fatalf("%s has no rules", alertsPath)
	}
	return rules
}

// alertKey identifies an alerting rule: one alert may have a rule per severity.
func alertKey(r rulefmt.Rule) string { return r.Alert + "/" + r.Labels["severity"] }

func TestAlertRules(t *testing.T) {
	families := metricFamilies(t)
	seen := map[string]bool{}
	job := labels.MustNewMatcher(labels.MatchEqual, "job", scrapeJob)
	for _, r := range alertRules(t) {
		t.Run(alertKey(r), func(t *testing.T) {
			checks := []struct {
				name string
				ok   bool
			}{
				{"is an alert, not a recording rule", r.Alert != "" && r.Record == ""},
				{"has a for: duration", r.For > 0},
				{"has a severity label of " + strings.Join(severities, " or "), slices.Contains(severities, r.Labels["severity"])},
				{"has a summary annotation", r.Annotations["summary"] != ""},
				{"has a description annotation with a runbook hint", strings.Contains(r.Annotations["description"], "Runbook:")},
				{"is the only rule of its name and severity", !seen[alertKey(r)]},
			}
			for _, c := range checks {
				if !c.ok {
					t.Errorf("alert %s: want it %s", r.Alert, c.name)
				}
			}
			seen[alertKey(r)] = true
			checkExpr(t, r.Expr, families, job)
		})
	}
}

// unitTests is the part of a promtool unit test file that the coverage check reads.
type unitTests struct {
	RuleFiles []string `json:"rule_files"`
	Tests     []struct {
		AlertRuleTest []struct {
			Alertname string `json:"alertname"`
			ExpAlerts []struct {
				ExpLabels map[string]string `json:"exp_labels"`
			} `json:"exp_alerts"`
		} `json:"alert_rule_test"`
	} `json:"tests"`
}

// TestAlertUnitTestsCoverEveryAlert checks, without promtool, that
// alertTestsPath tests alertsPath, that one of its tests (a healthy fleet)
// expects every alert to stay silent, and that every rule (each alert at each
// of its severities) fires in some test.
func TestAlertUnitTestsCoverEveryAlert(t *testing.T) {
	text, err := os.ReadFile(alertTestsPath)
	if err != nil {
		t.Fatal(err)
	}
	var ut unitTests
	if err := yaml.Unmarshal(text, &ut); err != nil {
		t.Fatalf("%s: %v", alertTestsPath, err)
	}
	if want := []string{filepath.Base(alertsPath)}; !slices.Equal(ut.RuleFiles, want) {
		t.Errorf("%s tests the rule files %q, want %q", alertTestsPath, ut.RuleFiles, want)
	}
	rules := alertRules(t)
	healthy, fires := false, map[string]bool{}
	for _, test := range ut.Tests {
		silent := map[string]bool{}
		for _, at := range test.AlertRuleTest {
			if len(at.ExpAlerts) == 0 {
				silent[at.Alertname] = true
			}
			for _, a := range at.ExpAlerts {
				fires[at.Alertname+"/"+a.ExpLabels["severity"]] = true
			}
		}
		healthy = healthy || !slices.ContainsFunc(rules, func(r rulefmt.Rule) bool { return !silent[r.Alert] })
	}
	if !healthy {
		t.Errorf("%s has no test that expects every alert to stay silent", alertTestsPath)
	}
	for _, r := range rules {
		if !fires[alertKey(r)] {
			t.Errorf("%s has no case in which %s fires with severity %s", alertTestsPath, r.Alert, r.Labels["severity"])
		}
	}
}

// TestAlertUnitTests runs alertTestsPath with promtool, at the version of the
// Prometheus module that the other checks use, when RULEBOOK_PROMTOOL=1 asks
// for it: the first run builds promtool from some 135 modules of the module
// proxy (about 10 minutes on 2 cores, a gigabyte of downloads); later runs
// take it from the build cache.
func TestAlertUnitTests(t *testing.T) {
	if os.Getenv("RULEBOOK_PROMTOOL") != "1" {
		t.Skip("promtool's unit tests of the alerts run with RULEBOOK_PROMTOOL=1 (building promtool takes minutes)")
	}
	version, err := exec.CommandContext(t.Context(), "go", "list", "-m", "-f", "{{.Version}}", prometheusModule).Output()
	if err != nil {
		t.Fatalf("the version of %s: %v", prometheusModule, err)
	}
	promtool := promtoolPackage + "@" + strings.TrimSpace(string(version))
	cmd := exec.CommandContext(t.Context(), "go", "run", "-tags", promtoolTags, promtool, "test", "rules", alertTestsPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
}

// dashboard is the part of a Grafana dashboard that the checks read.
type dashboard struct {
	UID           string `json:"uid"`
	Title         string `json:"title"`
	SchemaVersion int    `json:"schemaVersion"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Panels []panel `json:"panels"`
}

// variable is a dashboard template variable.
type variable struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Query string `json:"query"`
}

// panel is a dashboard panel, or a row with the panels it holds when collapsed.
type panel struct {
	ID      int     `json:"id"`
	Type    string  `json:"type"`
	Title   string  `json:"title"`
	Panels  []panel `json:"panels"`
	Targets []struct {
		RefID string `json:"refId"`
		Expr  string `json:"expr"`
	} `json:"targets"`
}

// loadDashboard decodes dashboardPath, and returns it, every panel in it
// (those in collapsed rows included) and its text.
func loadDashboard(t *testing.T) (dashboard, []panel, []byte) {
	t.Helper()
	text, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(text, &d); err != nil {
		t.Fatalf("%s: %v", dashboardPath, err)
	}
	var panels []panel
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			panels = append(panels, p)
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	return d, panels, text
}

// datasourceRefs returns every "datasource" value in the decoded JSON v, as JSON.
func datasourceRefs(v any) []string {
	var refs []string
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if k == "datasource" {
				ref, _ := json.Marshal(child) // it was decoded from JSON
				refs = append(refs, string(ref))
				continue
			}
			refs = append(refs, datasourceRefs(child)...)
		}
	case []any:
		for _, child := range v {
			refs = append(refs, datasourceRefs(child)...)
		}
	}
	return refs
}

func TestDashboard(t *testing.T) {
	d, panels, text := loadDashboard(t)
	if d.UID == "" || d.Title == "" {
		t.Errorf("%s: want a uid and a title", dashboardPath)
	}
	if d.SchemaVersion < minSchemaVersion {
		t.Errorf("%s: schemaVersion %d, want %d or later", dashboardPath, d.SchemaVersion, minSchemaVersion)
	}

	vars := map[string]variable{}
	for _, v := range d.Templating.List {
		vars[v.Name] = v
	}
	for _, want := range []variable{
		{Name: datasourceVar, Type: "datasource", Query: "prometheus"},
		{Name: jobVar, Type: "query"},
		{Name: instanceVar, Type: "query"},
	} {
		got := vars[want.Name]
		if got.Type != want.Type || want.Query != "" && got.Query != want.Query {
			t.Errorf("%s: variable %s is %+v, want %+v", dashboardPath, want.Name, got, want)
		}
	}

	var generic any
	if err := json.Unmarshal(text, &generic); err != nil {
		t.Fatal(err)
	}
	wantRef := fmt.Sprintf(`{"type":"prometheus","uid":"${%s}"}`, datasourceVar)
	for _, ref := range datasourceRefs(generic) {
		if ref != wantRef {
			t.Errorf("%s: data source %s, want only %s", dashboardPath, ref, wantRef)
		}
	}

	ids := map[int]string{}
	for _, p := range panels {
		if other, dup := ids[p.ID]; dup || p.ID <= 0 {
			t.Errorf("panel %q: id %d is not positive, or is also panel %q's", p.Title, p.ID, other)
		}
		ids[p.ID] = p.Title
		if p.Title == "" {
			t.Errorf("panel %d has no title", p.ID)
		}
		if p.Type != "row" && len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
	}
}

// TestDashboardQueries checks every query of the dashboard: its variables'
// label_values selectors, and its panels' expressions, which must select the
// dashboard's job and instances.
func TestDashboardQueries(t *testing.T) {
	d, panels, _ := loadDashboard(t)
	families := metricFamilies(t)
	job := labels.MustNewMatcher(labels.MatchEqual, "job", "$"+jobVar)
	instance := labels.MustNewMatcher(labels.MatchRegexp, "instance", "$"+instanceVar)
	type query struct {
		name, expr string
		want       []*labels.Matcher
	}
	var queries []query
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		m := labelValuesRE.FindStringSubmatch(v.Query)
		if m == nil {
			t.Errorf("variable %s: query %q, want label_values(SELECTOR, LABEL)", v.Name, v.Query)
			continue
		}
		queries = append(queries, query{"variable " + v.Name, m[1], nil})
	}
	for _, p := range panels {
		for _, target := range p.Targets {
			queries = append(queries, query{p.Title + " " + target.RefID, grafanaIntervals.Replace(target.Expr), []*labels.Matcher{job, instance}})
		}
	}
	for _, q := range queries {
		t.Run(q.name, func(t *testing.T) { checkExpr(t, q.expr, families, q.want...) })
	}
}
