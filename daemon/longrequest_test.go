package daemon_test

import (
	"net/http"
	"testing"
	"time"

	"primeur/core/images"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
	"primeur/daemon/daemontest"
)

// TestARequestMayWaitItsTurn: a product's photo that waits longer than 5 s
// for its turn to be decoded — the decoding gate's places all taken, as by
// other shops' photos on a busy day — is answered once its turn comes.
// huma gives an operation's body 5 s by default, a deadline on the
// connection that, reached while the handler still runs, made Go's server
// end the request as if the client had gone: 503 "Requête interrompue." to
// a request being served (wholeRequestTime). Not parallel: it holds the
// process's decoding gate.
func TestARequestMayWaitItsTurn(t *testing.T) {
	s := daemontest.New(t, storetest.SQLite(t))
	dairy, _ := s.Producer("fruitiere@aravis.fr", "Fruitière des Aravis")
	var p supplied.Product
	dairy.Do("POST", "/api/supplied-products", map[string]any{"productType": "tomme-de-savoie", "name": "Tomme de Savoie fermière",
		"packaging": "pièce", "unitQuantity": 1.5, "months": []int{1, 2, 3}, "refPrice": 14.5}).Expect(t, http.StatusCreated).JSON(t, &p)
	photo := photoPNG(t, 320, 200)
	release := images.HoldForTest()
	defer release()
	answer := make(chan *daemontest.Response, 1)
	go func() {
		defer func() { _ = recover() }() // a failed request ends the test below
		answer <- dairy.Do("PUT", "/api/supplied-products/"+p.ID+"/photo", map[string]any{"photo": photo})
	}()
	time.Sleep(6 * time.Second)
	release()
	select {
	case res := <-answer:
		res.Expect(t, http.StatusOK)
	case <-time.After(time.Minute):
		t.Fatal("no answer a minute after the decoding gate was free")
	}
}
