package commands

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"primeur/core/config"
)

// The claims of the README and of docs/PRODUCT.md §10 that the code can
// make false are checked against the code: the jobs (what `jobs list
// --json` prints), the commands (what cobra knows, and their flags), the
// settings (the configuration schema), the Node versions (ui/package.json)
// and the PRIMEUR_* variables the repository uses.

// readDoc reads a file of the repository.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// section is the text of a Markdown section, from its heading to the next
// heading of the same or a higher level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	start := strings.Index(doc, "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("no section %q", heading)
	}
	level := strings.Index(heading, " ")
	rest := doc[start+len(heading)+2:]
	for i := 0; i < len(rest); {
		end := strings.IndexByte(rest[i:], '\n')
		if end < 0 {
			break
		}
		line := rest[i : i+end]
		if n := strings.IndexByte(line, ' '); n > 0 && n <= level && strings.Trim(line[:n], "#") == "" {
			return rest[:i]
		}
		i += end + 1
	}
	return rest
}

// firstTable returns the rows of the first Markdown table of text, each
// as its cells (pipes escaped as \| kept in their cell), header and rule
// left out.
func firstTable(t *testing.T, text string) [][]string {
	t.Helper()
	var rows [][]string
	in := false
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			if in {
				break
			}
			continue
		}
		in = true
		cells := splitRow(line)
		if len(rows) == 0 && len(cells) > 0 && strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			rows = append(rows, nil) // the rule: the header is behind
			continue
		}
		rows = append(rows, cells)
	}
	if len(rows) < 2 {
		t.Fatalf("no table in %q", text[:min(len(text), 200)])
	}
	return rows[2:]
}

func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteString(`\|`)
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// codes are the code spans of a cell.
func codes(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestREADMEListsTheJobs: the README's table of the jobs the daemon runs,
// and the names `jobs run` takes, are those of `jobs list --json`, in its
// order; `jobs --help` names them all.
func TestREADMEListsTheJobs(t *testing.T) {
	code, out, errOut := run(t, "", "jobs", "list", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var listed []jobJSON
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, j := range listed {
		names = append(names, j.Name)
	}
	readme := readDoc(t, "README.md")
	var documented []string
	for _, row := range firstTable(t, section(t, readme, "## Jobs, documents and emails")) {
		documented = append(documented, codes(row[0])...)
	}
	if !slices.Equal(documented, names) {
		t.Errorf("README's jobs table lists %v; primeur jobs list --json: %v", documented, names)
	}
	for _, row := range firstTable(t, section(t, readme, "## Commands")) {
		if strings.HasPrefix(row[0], "`primeur jobs run NAME") {
			if got := codes(row[1]); !slices.Equal(got[:len(names)], names) {
				t.Errorf("README's jobs run names %v; primeur jobs list --json: %v", got, names)
			}
		}
	}
	_, help, _ := run(t, "", "jobs", "--help")
	for _, n := range names {
		if !strings.Contains(help, n) {
			t.Errorf("primeur jobs --help does not name %s:\n%s", n, help)
		}
	}
}

// leafCommands are the commands cobra runs (the groups, help and hidden
// ones left out), by path without "primeur ".
func leafCommands() map[string]*cobra.Command {
	a := &app{}
	out := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.HasSubCommands() && !c.Hidden && c.Name() != "help" {
			out[strings.TrimPrefix(c.CommandPath(), "primeur ")] = c
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(a.rootCommand())
	return out
}

// documentedCommand resolves a documented invocation ("primeur user
// create --email E") to the command it runs and the flags it names.
func documentedCommand(root *cobra.Command, text string) (*cobra.Command, []string, error) {
	words := strings.Fields(text)
	if len(words) == 0 || words[0] != "primeur" {
		return nil, nil, fmt.Errorf("not a command: %q", text)
	}
	c := root
	i := 1
	for ; i < len(words); i++ {
		var next *cobra.Command
		for _, sub := range c.Commands() {
			if sub.Name() == words[i] {
				next = sub
			}
		}
		if next == nil {
			break
		}
		c = next
	}
	if c.HasSubCommands() {
		return nil, nil, fmt.Errorf("%q names no command (%q after %s)", text, strings.Join(words[i:], " "), c.CommandPath())
	}
	var flags []string
	for _, w := range words[i:] {
		if m := regexp.MustCompile(`--[a-z][a-z.-]*[a-z]`).FindString(w); m != "" {
			flags = append(flags, m[2:])
		}
	}
	return c, flags, nil
}

// variants expands alternatives of a subcommand written
// "primeur user create\|list\|set-password" into one invocation each.
func variants(span string) []string {
	words := strings.Fields(span)
	if len(words) <= 2 || !strings.Contains(words[2], `\|`) || strings.HasPrefix(words[2], "-") {
		return []string{span}
	}
	var out []string
	for _, alt := range strings.Split(words[2], `\|`) {
		out = append(out, strings.Join(append([]string{words[0], words[1], alt}, words[3:]...), " "))
	}
	return out
}

// checkCommandTable checks a documentation table of commands: every
// command its first cells name exists, with the flags written beside it,
// and every command cobra runs is named. Alternatives written
// create\|list\|set-password stand for each.
func checkCommandTable(t *testing.T, doc, heading string) {
	t.Helper()
	a := &app{}
	root := a.rootCommand()
	leaves := leafCommands()
	named := map[string]bool{}
	for _, row := range firstTable(t, section(t, doc, heading)) {
		for _, span := range codes(row[0]) {
			if !strings.HasPrefix(span, "primeur ") {
				continue
			}
			for _, v := range variants(span) {
				c, flags, err := documentedCommand(root, v)
				if err != nil {
					t.Errorf("%s: %v", heading, err)
					continue
				}
				path := strings.TrimPrefix(c.CommandPath(), "primeur ")
				named[path] = true
				for _, f := range flags {
					if c.Flags().Lookup(f) == nil && c.InheritedFlags().Lookup(f) == nil {
						t.Errorf("%s: %q documents --%s, which %s does not take", heading, span, f, c.CommandPath())
					}
				}
			}
		}
	}
	for path := range leaves {
		if !named[path] {
			t.Errorf("%s does not document primeur %s", heading, path)
		}
	}
}

// TestDocumentedCommandsAreCobras: the README's table of commands and
// PRODUCT §10's name exactly the commands the binary runs, each with
// flags it takes (`primeur user add`, documented once, does not exist).
func TestDocumentedCommandsAreCobras(t *testing.T) {
	checkCommandTable(t, readDoc(t, "README.md"), "## Commands")
	checkCommandTable(t, readDoc(t, "docs/PRODUCT.md"), "### Commands")
}

// TestDocumentedSettingsAreTheSchemas: the README's table of settings
// names every key of the configuration schema, in its order, with its
// environment variable and its default; PRODUCT §10's names them all.
func TestDocumentedSettingsAreTheSchemas(t *testing.T) {
	var keys []string
	for _, s := range config.Settings {
		keys = append(keys, s.Key)
	}
	readme := readDoc(t, "README.md")
	var documented []string
	for _, row := range firstTable(t, section(t, readme, "## Configuration")) {
		key := codes(row[0])[0]
		documented = append(documented, key)
		i := slices.Index(keys, key)
		if i < 0 {
			t.Errorf("README documents a setting %q the schema lacks", key)
			continue
		}
		s := config.Settings[i]
		if env := codes(row[1]); len(env) != 1 || env[0] != envName(key) {
			t.Errorf("README: %s's variable is %q, not %s", key, row[1], envName(key))
		}
		want := fmt.Sprint(s.Default)
		if got := row[2]; (want == "" && got != "empty") || (want != "" && got != "`"+want+"`") {
			t.Errorf("README: %s's default is %s, the schema's %q", key, got, want)
		}
	}
	if !slices.Equal(documented, keys) {
		t.Errorf("README's settings %v; the schema's %v", documented, keys)
	}
	product := map[string]bool{}
	for _, row := range firstTable(t, section(t, readDoc(t, "docs/PRODUCT.md"), "### Configuration")) {
		for _, k := range codes(row[0]) {
			if !slices.Contains(keys, k) {
				t.Errorf("PRODUCT §10 documents a setting %q the schema lacks", k)
			}
			product[k] = true
		}
	}
	for _, k := range keys {
		if !product[k] {
			t.Errorf("PRODUCT §10 does not document %s", k)
		}
	}
}

// TestREADMEStatesTheNodeVersions: the README says which Node versions
// the UI needs as ui/package.json's engines say it.
func TestREADMEStatesTheNodeVersions(t *testing.T) {
	var pkg struct {
		Engines struct {
			Node string `json:"node"`
		} `json:"engines"`
	}
	if err := json.Unmarshal([]byte(readDoc(t, "ui/package.json")), &pkg); err != nil || pkg.Engines.Node == "" {
		t.Fatalf("ui/package.json engines: %v", err)
	}
	for _, doc := range []string{"README.md", "ui/README.md", "docs/PRODUCT.md"} {
		if !strings.Contains(readDoc(t, doc), "`"+pkg.Engines.Node+"`") {
			t.Errorf("%s does not state Node %s (ui/package.json)", doc, pkg.Engines.Node)
		}
	}
}

// TestEveryPrimeurVariableIsKnown: every PRIMEUR_* variable the
// repository names — code, scripts, docs — is a setting's or one of the
// variables a command accepts beside them (knownVariable): a test or tool
// that passed another one to the binary would see it refused.
func TestEveryPrimeurVariableIsKnown(t *testing.T) {
	name := regexp.MustCompile(`PRIMEUR_[A-Z0-9_]*`)
	// Unknown on purpose: the refusals' tests.
	deliberate := map[string]bool{"PRIMEUR_DATADIR": true, "PRIMEUR_SMTP_HOTS": true}
	exts := []string{".go", ".ts", ".tsx", ".js", ".mjs", ".sh", ".md", ".yml", ".yaml", ".json", ".service", ".conf"}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "dist", "build", "third_party", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		base := filepath.Base(path)
		if !slices.Contains(exts, filepath.Ext(path)) && base != "Makefile" && base != "run" && base != "Dockerfile" && base != "Caddyfile" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, n := range name.FindAllString(string(data), -1) {
			if strings.HasSuffix(n, "_") { // a prefix named, PRIMEUR_* or PRIMEUR_TEST_
				continue
			}
			if !knownVariable(n) && !deliberate[n] {
				t.Errorf("%s names %s, which primeur would refuse: a setting's variable, or one to add to envNotSettings", path, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// refusedExamples are the invocations a doc quotes as refused, which must
// be, by doc.
var refusedExamples = map[string]map[string]bool{"README.md": {"primeur user add": true}}

// TestEveryDocumentedInvocationExists: every `primeur …` the docs write —
// in a code span or a line of a code block — names a command the binary
// runs, with flags it takes (docs/PRODUCT.md once said `primeur user add`).
func TestEveryDocumentedInvocationExists(t *testing.T) {
	a := &app{}
	root := a.rootCommand()
	docs := []string{"README.md", "ui/README.md"}
	entries, err := os.ReadDir("../docs")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") {
			docs = append(docs, "docs/"+e.Name())
		}
	}
	for _, texts := range refusedExamples {
		for text := range texts {
			if code, _, _ := run(t, "", strings.Fields(text)[1:]...); code == 0 {
				t.Errorf("%q, quoted as refused, ran", text)
			}
		}
	}
	invocation := regexp.MustCompile("(?m)`(primeur [^`]+)`|^\\s*(?:\\$ )?(primeur [a-z].*)$")
	for _, doc := range docs {
		for _, m := range invocation.FindAllStringSubmatch(readDoc(t, doc), -1) {
			text := m[1] + m[2]
			text, _, _ = strings.Cut(text, " #")
			if strings.HasPrefix(text, "primeur help") || refusedExamples[doc][text] {
				continue
			}
			for _, v := range variants(text) {
				c, flags, err := documentedCommand(root, v)
				if err != nil {
					t.Errorf("%s: %v", doc, err)
					continue
				}
				for _, f := range flags {
					if c.Flags().Lookup(f) == nil && c.InheritedFlags().Lookup(f) == nil {
						t.Errorf("%s: %q documents --%s, which %s does not take", doc, v, f, c.CommandPath())
					}
				}
			}
		}
	}
}
