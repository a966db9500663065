package httpx

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"primeur/core/text"
)

// FuzzUncleanFields: for any body, the walk of CheckJSONBody never panics
// and reports at most maxReportedFields paths, and a valid UTF-8 JSON
// document it passes holds only strings (names and values) that follow the
// text rule, free text being a string directly under a free-text name.
func FuzzUncleanFields(f *testing.F) {
	check := TextCheck{Multiline: map[string]bool{"claimComment": true}}
	for _, seed := range []string{
		`{"name":"Ferme du Lac 🥕"}`,
		`{"name":"a\u0000b"}`,
		`{"deliveryLines":[{"_id":"l","claimComment":"ligne\nligne"}]}`,
		`{"deliveryLines":[{"_id":"l","claimType":"a\tb"}]}`,
		`{"claimComment":["a\nb"]}`,
		`{"name":"\u0000","name":"x"}`,
		`{"dates":["2027-01","2027-02\u0085"],"quantities":[1,2]}`,
		`{"a\u0001":{"b":[[["\u001b"]]]}}`,
		`[1,"x",{"y":null}]`,
		`{"product":`,
		`"\ud800"`,
		"{\"name\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		bad := check.uncleanFields(body)
		if len(bad) > maxReportedFields {
			t.Fatalf("%d fields reported", len(bad))
		}
		if !utf8.Valid(body) {
			return
		}
		var doc any
		if err := json.Unmarshal(body, &doc); err != nil {
			return
		}
		var walk func(v any) bool
		walk = func(v any) bool {
			switch v := v.(type) {
			case string:
				return text.Clean(v, false)
			case []any:
				for _, e := range v {
					if !walk(e) {
						return false
					}
				}
			case map[string]any:
				for k, e := range v {
					if s, ok := e.(string); ok && check.Multiline[k] {
						if !text.Clean(s, true) {
							return false
						}
					} else if !walk(e) {
						return false
					}
					if !text.Clean(k, false) {
						return false
					}
				}
			}
			return true
		}
		// (A clean document may still be reported: a duplicate name whose
		// first value breaks the rule is checked, and then overwritten by
		// encoding/json.)
		if !walk(doc) && len(bad) == 0 {
			t.Fatalf("document %q with a control character passed", body)
		}
	})
}
