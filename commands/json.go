package commands

import "encoding/json"

// writeJSON prints v as the output of a --json flag: indented JSON, one
// document, nothing else on standard output (progress and errors go to
// standard error); text as written, without HTML escaping.
func (a *app) writeJSON(v any) error {
	enc := json.NewEncoder(a.out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
