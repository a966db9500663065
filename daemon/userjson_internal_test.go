package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"primeur/core/orders"
	"primeur/core/planning"
)

// TestUserLoadAppendJSON: the user load's hand-written JSON is
// encoding/json's, byte for byte, for a load whose every field — of the
// needs, proposals, orders, deliveries, lines, invoices and credits
// included — holds a value (strings with quotes, backslashes, control
// characters, HTML, non-ASCII, U+2028 and invalid UTF-8; negative and
// decimal quantities), for the same load with every string and number
// empty (omitempty fields left out) and for the empty load (null
// lists). A field added to one of the types and not to the appender
// fails it.
func TestUserLoadAppendJSON(t *testing.T) {
	full := UserLoad{}
	n := 0
	fill(reflect.ValueOf(&full).Elem(), &n)
	blank := UserLoad{}
	fill(reflect.ValueOf(&blank).Elem(), new(int))
	clearScalars(reflect.ValueOf(&blank).Elem())
	empty := UserLoad{
		Needs: []planning.View{{Proposals: []planning.Proposal{}}},
		Orders: []orders.View{
			{Deliveries: []orders.DeliveryView{}, Invoice: &orders.InvoiceRef{Credits: []orders.CreditRef{}}},
			{Deliveries: []orders.DeliveryView{{DeliveryLines: []orders.LineView{}}}},
		},
	}
	for name, load := range map[string]UserLoad{"full": full, "blank": blank, "zero": {}, "empty lists": empty} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(load); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := writeJSON(&got, load); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s:\n got %s\nwant %s", name, got.Bytes(), want.Bytes())
		}
	}
}

// FuzzAppendString: appendString writes every string as encoding/json
// does without HTML escaping.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "abc", "é\u2028\u2029<>&", "\x00\x1f\"\\\b\f\n\r\t", "\xff\xfe", "a\xc3", "\U0001F600",
		"01a21998-e41e-7023-bd5a-d44cd3544a55", "01234567\"9abcdef", "abcdefgh\x1f", "abcdefghijklmno\\", "abcdefgé", "~~~~~~~~ \x7f\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Fatalf("%q: got %s, want %s", s, got, want.Bytes())
		}
	})
}

// fill gives every settable field of v a value, different each time (n
// counts them), two elements to every list and a value to every pointer.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d \"q\" \\ <b>&amp; é\u2028\t\x01\xff", *n))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := int64(*n*137 + 5)
		if *n%2 == 0 {
			x = -x
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), n)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	}
}

// clearScalars empties every string and number of v, keeping its lists
// and pointers.
func clearScalars(v reflect.Value) {
	switch v.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64, reflect.Bool:
		v.SetZero()
	case reflect.Pointer:
		if !v.IsNil() {
			clearScalars(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			clearScalars(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				clearScalars(v.Field(i))
			}
		}
	}
}
