package daemon_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/config"
	"primeur/daemon"
)

// TestRequestFieldsRequiredOnlyWhenTagged keeps PRODUCT's French messages: a
// field of a request body is required in the document (and so refused by
// huma, with its English message, when missing) only when its Go field says
// required:"true". Every other field reaches core, which answers a missing
// one with the French message of its rule; since answer fields are required
// by default (apiConfig), a request field core checks must say
// required:"false".
func TestRequestFieldsRequiredOnlyWhenTagged(t *testing.T) {
	t.Parallel()
	doc := daemon.New(daemon.Options{Config: config.Defaults()}).OpenAPI()
	r := doc.Components.Schemas
	checked := 0
	for path, item := range doc.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Delete, item.Patch} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			for mediaType, media := range op.RequestBody.Content {
				where := op.OperationID + " (" + path + ", " + mediaType + ")"
				if media.Schema.Ref == "" {
					// An inline schema (the multipart upload) has no Go
					// type to read the tags of: it may require nothing.
					if len(media.Schema.Required) > 0 {
						t.Errorf("%s: the inline request schema requires %v", where, media.Schema.Required)
					}
					continue
				}
				checked += checkRequired(t, r, where, media.Schema.Ref, map[string]bool{})
			}
		}
	}
	if checked == 0 {
		t.Fatal("no request body schema found")
	}
}

// checkRequired checks the schema at ref and the schemas of its properties;
// it returns the number of schemas checked.
func checkRequired(t *testing.T, r huma.Registry, where, ref string, seen map[string]bool) int {
	t.Helper()
	if seen[ref] {
		return 0
	}
	seen[ref] = true
	s := r.SchemaFromRef(ref)
	typ := r.TypeFromRef(ref)
	for typ != nil && (typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice) {
		typ = typ.Elem()
	}
	if s == nil || typ == nil || typ.Kind() != reflect.Struct {
		t.Errorf("%s: %s is not a struct's schema", where, ref)
		return 0
	}
	for _, name := range s.Required {
		f, ok := fieldByJSONName(typ, name)
		if !ok {
			t.Errorf("%s: %s requires %q, which names no field", where, ref, name)
			continue
		}
		if f.Tag.Get("required") != "true" {
			t.Errorf("%s: %s (field %s of %s) is required without saying so: tag it required:\"false\" when core "+
				"checks it (with PRODUCT's French message), required:\"true\" when huma may refuse it", where, name, f.Name, ref)
		}
	}
	n := 1
	for _, p := range s.Properties {
		for p != nil && p.Type == huma.TypeArray {
			p = p.Items
		}
		if p != nil && p.Ref != "" {
			n += checkRequired(t, r, where, p.Ref, seen)
		}
	}
	return n
}

// fieldByJSONName finds the field of a struct named name in JSON.
func fieldByJSONName(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		jsonName, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if jsonName == "" {
			jsonName = f.Name
		}
		if jsonName == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
