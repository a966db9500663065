package accounts_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestUserFieldsFollowTheColumns reads an account whose every column holds
// a value of its own through ByID, ByEmail and SessionUser (scanned by
// hand, in the columns' order) and through sqlx by column name: a field
// scanned into its neighbour's place, or a column left out, differs.
func TestUserFieldsFollowTheColumns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var u accounts.User
		v := reflect.ValueOf(&u).Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.String:
				f.SetString(fmt.Sprintf("v%02d", i))
			case reflect.Int, reflect.Int64:
				f.SetInt(int64(1000 + i))
			case reflect.Bool:
				f.SetBool(true)
			case reflect.Pointer:
				f.Set(reflect.New(f.Type().Elem()))
				f.Elem().SetInt(int64(2000 + i))
			}
		}
		u.ID, u.Type, u.Email, u.DeliveryDays = "fields-1", accounts.Producer, "Champs@Exemple.fr", "1010100"
		u.EmailKey = accounts.EmailKey(u.Email)
		u.Latitude, u.Longitude = "45.899247", "6.129384"
		if err := accounts.Insert(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		var want accounts.User
		if err := db.Unsafe().GetContext(ctx, &want, db.Rebind(`SELECT * FROM users WHERE id = ?`), u.ID); err != nil {
			t.Fatal(err)
		}
		// Every field of the row read by name holds a value of its own
		// (else a swap between two of them would go unseen).
		seen := map[string]string{}
		w := reflect.ValueOf(want)
		for i := range w.NumField() {
			f := w.Field(i)
			if f.Kind() == reflect.Bool {
				continue
			}
			text := fmt.Sprint(reflect.Indirect(f).Interface())
			if f.IsZero() || seen[text] != "" {
				t.Fatalf("field %s = %q: zero or the same as %s; the test needs a value of its own in each", w.Type().Field(i).Name, text, seen[text])
			}
			seen[text] = w.Type().Field(i).Name
		}
		byID, err := accounts.ByID(ctx, db, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		byEmail, err := accounts.ByEmail(ctx, db, u.Email)
		if err != nil {
			t.Fatal(err)
		}
		token, err := accounts.NewSession(ctx, db, u.ID, t0)
		if err != nil {
			t.Fatal(err)
		}
		bySession, err := accounts.SessionUser(ctx, db, token, t0)
		if err != nil {
			t.Fatal(err)
		}
		for name, got := range map[string]accounts.User{"ByID": byID, "ByEmail": byEmail, "SessionUser": bySession} {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
			}
		}
	})
}
