package daemon_test

import (
	"net/http"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/teams"
	"primeur/daemon/daemontest"
)

// TestOwnNameAndNotifications: each person of a team has their own name,
// distinct from the organisation's (PUT /api/user/person), and their own
// choices of notifications, listing the kinds their role receives (issue
// 41): a buyer's are the trade's; a buyer's choice leaves the owner's
// alone. An empty name is refused with the French text, nothing changed.
func TestOwnNameAndNotifications(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		owner, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		owner.Do("POST", "/api/team/invitations", map[string]any{"email": "marie@lac.fr", "role": "buyer"}).Expect(t, 201)
		buyer := s.Client()
		buyer.Do("POST", "/auth/invitation/accept", map[string]any{"token": invitationToken(t, s, "marie@lac.fr"), "name": "Marie", "password": daemontest.Password}).
			Expect(t, 200)

		type prefs struct {
			User struct {
				Name   string `json:"name"`
				Person struct {
					Name string `json:"name"`
				} `json:"person"`
				Notifications []struct{ Kind, Mode string } `json:"notifications"`
			} `json:"user"`
		}
		var got prefs
		owner.Do("PUT", "/api/user/person", map[string]any{"name": "  Claire Martin "}).Expect(t, 200).JSON(t, &got)
		if got.User.Person.Name != "Claire Martin" || got.User.Name != "Épicerie du Lac" {
			t.Fatalf("after naming herself: person %q, organisation %q", got.User.Person.Name, got.User.Name)
		}

		buyer.Do("PUT", "/api/user/notifications", map[string]any{"kind": "proposal", "mode": "none"}).Expect(t, 200).JSON(t, &got)
		kinds := map[string]string{}
		for _, p := range got.User.Notifications {
			kinds[p.Kind] = p.Mode
		}
		if len(kinds) != 3 || kinds["proposal"] != "none" || kinds["answer"] != "immediate" || kinds["correction"] != "immediate" {
			t.Fatalf("the buyer's choices %v, want proposal off, answer and correction", kinds)
		}
		owner.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &got)
		if len(got.User.Notifications) < 6 {
			t.Fatalf("the owner's choices %v, want every kind of a shop", got.User.Notifications)
		}
		for _, p := range got.User.Notifications {
			if p.Mode != "immediate" {
				t.Fatalf("the buyer's choice changed the owner's: %v", got.User.Notifications)
			}
		}

		s.Refuses(t, []daemontest.Refused{
			{Name: "an empty name", Client: buyer, Method: "PUT", Path: "/api/user/person", Body: map[string]any{"name": "  "},
				Status: http.StatusUnprocessableEntity, Detail: teams.MsgNameRequired, Location: "body.name"},
		})
	})
}
