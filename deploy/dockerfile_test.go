package deploy

import (
	"encoding/json"
	"fmt"
	"go/version"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const (
	// dockerfilePath is the image definition, relative to this module.
	dockerfilePath = "Dockerfile"
	// rootGoMod is the server module's go.mod, relative to this module.
	rootGoMod = "../go.mod"
	// mainPackage is the server's main package, relative to the build context.
	mainPackage = "./cmd/rulebookd"
	// distrolessNonrootUID is the user of the distroless :nonroot images.
	distrolessNonrootUID = 65532
)

var (
	// builderImageRE matches a golang image pinned to a Go 1.26 patch release,
	// optionally with a variant suffix and a digest; group 1 is the version.
	builderImageRE = regexp.MustCompile(`^golang:(1\.26\.\d+)(-[a-z0-9]+)?(@sha256:[0-9a-f]{64})?$`)
	// runtimeImageRE matches the accepted final-stage base images.
	runtimeImageRE = regexp.MustCompile(`^(scratch|gcr\.io/distroless/static(-debian\d+)?:nonroot(@sha256:[0-9a-f]{64})?)$`)
	// ldflagsRE captures the value of a quoted -ldflags argument.
	ldflagsRE = regexp.MustCompile(`-ldflags[= ]+(["'])(.*?)["']`)
	// outputRE captures the value of go build's -o flag.
	outputRE = regexp.MustCompile(`\s-o[= ]+(\S+)`)
	// goDirectiveRE captures the version of a go.mod's go directive.
	goDirectiveRE = regexp.MustCompile(`(?m)^go\s+(\S+)\s*$`)
	// toolchainRE captures the toolchain of a go.mod's toolchain line.
	toolchainRE = regexp.MustCompile(`(?m)^toolchain\s+(\S+)\s*$`)
)

// instruction is one logical Dockerfile line: its upper-cased keyword and the
// rest, with line continuations joined.
type instruction struct {
	cmd, args string
}

// stage is a build stage: its FROM image, its optional name and the
// instructions that follow the FROM.
type stage struct {
	image, name  string
	instructions []instruction
}

// find returns the arguments of every instruction cmd in s.
func (s stage) find(cmd string) []string {
	var args []string
	for _, in := range s.instructions {
		if in.cmd == cmd {
			args = append(args, in.args)
		}
	}
	return args
}

// env returns the variables that the ENV instructions of s set.
func (s stage) env() map[string]string {
	vars := map[string]string{}
	for _, args := range s.find("ENV") {
		fields := strings.Fields(args)
		if len(fields) > 0 && !strings.Contains(fields[0], "=") { // legacy ENV KEY VALUE
			vars[fields[0]] = strings.TrimSpace(strings.TrimPrefix(args, fields[0]))
			continue
		}
		for _, f := range fields {
			k, v, _ := strings.Cut(f, "=")
			vars[k] = strings.Trim(v, `"'`)
		}
	}
	return vars
}

// parseDockerfile splits a Dockerfile into build stages. It understands the
// subset of the syntax that deploy/Dockerfile needs: comments, backslash line
// continuations, ARG before the first FROM, and FROM [--flag...] IMAGE [AS NAME].
func parseDockerfile(text string) ([]stage, error) {
	var (
		stages  []stage
		logical strings.Builder
	)
	flush := func() error {
		line := strings.TrimSpace(logical.String())
		logical.Reset()
		if line == "" {
			return nil
		}
		cmd, args, _ := strings.Cut(line, " ")
		cmd, args = strings.ToUpper(cmd), strings.TrimSpace(args)
		switch {
		case cmd == "FROM":
			fields := slices.DeleteFunc(strings.Fields(args), func(f string) bool { return strings.HasPrefix(f, "--") })
			st := stage{}
			switch {
			case len(fields) == 1:
				st.image = fields[0]
			case len(fields) == 3 && strings.EqualFold(fields[1], "AS"):
				st.image, st.name = fields[0], fields[2]
			default:
				return fmt.Errorf("malformed FROM %q", args)
			}
			stages = append(stages, st)
		case len(stages) == 0 && cmd == "ARG":
		case len(stages) == 0:
			return fmt.Errorf("%s before the first FROM", cmd)
		default:
			last := &stages[len(stages)-1]
			last.instructions = append(last.instructions, instruction{cmd: cmd, args: args})
		}
		return nil
	}
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") {
			continue // comments, parser directives, and comments inside continuations
		}
		if body, ok := strings.CutSuffix(trimmed, `\`); ok {
			logical.WriteString(strings.TrimSpace(body) + " ")
			continue
		}
		logical.WriteString(trimmed)
		if err := flush(); err != nil {
			return nil, err
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return stages, nil
}

// dockerImage is what the tests learn from deploy/Dockerfile.
type dockerImage struct {
	builder, runtime stage
	// copySrc and copyDst are the source and destination of the runtime
	// stage's COPY --from the builder.
	copySrc, copyDst string
}

// loadDockerfile parses dockerfilePath and finds the builder stage as the one
// the final stage copies from.
func loadDockerfile(t *testing.T) dockerImage {
	t.Helper()
	text, err := os.ReadFile(dockerfilePath)
	if err != nil {
		t.Fatal(err)
	}
	stages, err := parseDockerfile(string(text))
	if err != nil {
		t.Fatalf("%s: %v", dockerfilePath, err)
	}
	if len(stages) < 2 {
		t.Fatalf("%s has %d stages, want a multi-stage build", dockerfilePath, len(stages))
	}
	img := dockerImage{runtime: stages[len(stages)-1]}
	copies := img.runtime.find("COPY")
	if len(copies) != 1 {
		t.Fatalf("final stage has %d COPY instructions, want 1 (the binary)", len(copies))
	}
	fields := strings.Fields(copies[0])
	from, ok := strings.CutPrefix(fields[0], "--from=")
	if !ok || len(fields) != 3 {
		t.Fatalf("final stage COPY %q: want COPY --from=STAGE SRC DST", copies[0])
	}
	img.copySrc, img.copyDst = fields[1], fields[2]
	i := slices.IndexFunc(stages, func(s stage) bool { return s.name == from })
	if i < 0 || i == len(stages)-1 {
		t.Fatalf("final stage copies from %q, which is not an earlier stage", from)
	}
	img.builder = stages[i]
	return img
}

// uid returns the numeric user the final stage runs as.
func (img dockerImage) uid(t *testing.T) int64 {
	t.Helper()
	users := img.runtime.find("USER")
	if len(users) == 0 {
		if strings.HasPrefix(img.runtime.image, "gcr.io/distroless/") {
			return distrolessNonrootUID
		}
		return 0
	}
	user, _, _ := strings.Cut(users[len(users)-1], ":")
	uid, err := strconv.ParseInt(user, 10, 64)
	if err != nil {
		t.Fatalf("USER %q is not numeric, so Kubernetes' runAsNonRoot cannot verify it", users[len(users)-1])
	}
	return uid
}

// rootGoVersions returns the go directive and the toolchain line of rootGoMod,
// both as "goX.Y[.Z]"; toolchain is empty if there is no toolchain line.
func rootGoVersions(t *testing.T) (goVersion, toolchain string) {
	t.Helper()
	mod, err := os.ReadFile(rootGoMod)
	if err != nil {
		t.Fatal(err)
	}
	m := goDirectiveRE.FindSubmatch(mod)
	if m == nil {
		t.Fatalf("%s has no go directive", rootGoMod)
	}
	if tm := toolchainRE.FindSubmatch(mod); tm != nil {
		toolchain = string(tm[1])
	}
	return "go" + string(m[1]), toolchain
}

func TestParseDockerfile(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    []stage
		wantErr bool
	}{
		{
			name: "stages, flags, continuations and comments",
			text: "# syntax=docker/dockerfile:1\nARG V=1\nFROM --platform=$BUILDPLATFORM golang:1.26.8 AS build\n" +
				"RUN go build \\\n  # comment inside\n  -o /out/x .\nFROM scratch\nuser 1:1\n",
			want: []stage{
				{image: "golang:1.26.8", name: "build", instructions: []instruction{{"RUN", "go build -o /out/x ."}}},
				{image: "scratch", instructions: []instruction{{"USER", "1:1"}}},
			},
		},
		{name: "instruction before FROM", text: "RUN true\nFROM scratch\n", wantErr: true},
		{name: "malformed FROM", text: "FROM a b\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseDockerfile(tt.text)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parsed %+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tt.want, func(a, b stage) bool {
				return a.image == b.image && a.name == b.name && slices.Equal(a.instructions, b.instructions)
			}) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDockerfileBuilder(t *testing.T) {
	b := loadDockerfile(t).builder
	m := builderImageRE.FindStringSubmatch(b.image)
	if m == nil {
		t.Fatalf("builder image %q: want golang pinned to a 1.26.x release", b.image)
	}
	have := "go" + m[1]
	goVersion, toolchain := rootGoVersions(t)
	if version.Compare(have, goVersion) < 0 {
		t.Errorf("builder has %s, but %s needs %s", have, rootGoMod, goVersion)
	}
	switch {
	case toolchain == "":
		t.Errorf("%s has no toolchain line to pin the builder's Go to", rootGoMod)
	case have != toolchain:
		t.Errorf("builder has %s, but the toolchain of %s is %s", have, rootGoMod, toolchain)
	}
	var build string
	for _, run := range b.find("RUN") {
		if strings.Contains(run, "go build") {
			build = run
		}
	}
	if build == "" {
		t.Fatal("builder stage has no RUN ... go build")
	}
	if b.env()["CGO_ENABLED"] != "0" && !strings.Contains(build, "CGO_ENABLED=0") {
		t.Error("go build must run with CGO_ENABLED=0")
	}
	var ldflags []string
	if lm := ldflagsRE.FindStringSubmatch(build); lm != nil {
		ldflags = strings.Fields(lm[2])
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"-trimpath", strings.Contains(build, " -trimpath")},
		{`-ldflags "-s -w"`, slices.Contains(ldflags, "-s") && slices.Contains(ldflags, "-w")},
		{"builds " + mainPackage, strings.HasSuffix(build, " "+mainPackage)},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("go build lacks %s: %q", c.name, build)
		}
	}
}

func TestDockerfileRuntime(t *testing.T) {
	img := loadDockerfile(t)
	r := img.runtime
	if !runtimeImageRE.MatchString(r.image) {
		t.Errorf("final image %q: want scratch or a distroless static :nonroot image", r.image)
	}
	if uid := img.uid(t); uid == 0 {
		t.Error("final stage runs as root; set a numeric non-root USER")
	}
	if got := r.env()["RULEBOOK_LOG_FORMAT"]; got != "json" {
		t.Errorf("ENV RULEBOOK_LOG_FORMAT = %q, want json", got)
	}
	entry := r.find("ENTRYPOINT")
	if len(entry) != 1 {
		t.Fatalf("final stage has %d ENTRYPOINTs, want 1", len(entry))
	}
	var argv []string
	if err := json.Unmarshal([]byte(entry[0]), &argv); err != nil || len(argv) == 0 {
		t.Fatalf("ENTRYPOINT %s: want exec (JSON) form, the image has no shell", entry[0])
	}
	if argv[0] != img.copyDst {
		t.Errorf("ENTRYPOINT runs %s, but the binary is copied to %s", argv[0], img.copyDst)
	}
	var out string
	for _, run := range img.builder.find("RUN") {
		if om := outputRE.FindStringSubmatch(run); om != nil && strings.Contains(run, "go build") {
			out = om[1]
		}
	}
	if out != img.copySrc {
		t.Errorf("final stage copies %s, but go build writes -o %q", img.copySrc, out)
	}
}

func TestDockerfileMatchesDeployment(t *testing.T) {
	img := loadDockerfile(t)
	m := loadManifests(t)
	c := m.container(t)

	var exposed []int32
	for _, args := range img.runtime.find("EXPOSE") {
		for _, f := range strings.Fields(args) {
			port, err := strconv.ParseInt(strings.TrimSuffix(f, "/tcp"), 10, 32)
			if err != nil {
				t.Fatalf("EXPOSE %s: want TCP port numbers", args)
			}
			exposed = append(exposed, int32(port))
		}
	}
	var ports []int32
	for _, p := range c.Ports {
		ports = append(ports, p.ContainerPort)
	}
	slices.Sort(exposed)
	slices.Sort(ports)
	if !slices.Equal(exposed, ports) {
		t.Errorf("Dockerfile EXPOSE %v, container ports %v; want the same", exposed, ports)
	}

	sc := m.deployment.Spec.Template.Spec.SecurityContext
	if uid := img.uid(t); sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != uid {
		t.Errorf("pod securityContext.runAsUser must be the image's user %d", uid)
	}
}
