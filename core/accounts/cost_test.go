package accounts

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"
)

// TestMain makes the passwords hashed by this binary's tests cost
// argon2id's least (issue 35: the real cost, some 19 MiB and tens of
// milliseconds a hash, was most of the package's CPU); the tests whose
// subject is the real cost call RealHashingForTest.
func TestMain(m *testing.M) {
	flag.Parse()
	CheapHashingForTests()
	os.Exit(m.Run())
}

// TestCheapHashingForTests: a test binary's cheap hashes carry their cost
// in their PHC string and are checked at it, real hashes still check
// really, the dummy a refused login checks follows the cost of the hashes
// made now, and RealHashingForTest gives the production cost back for
// one test.
func TestCheapHashingForTests(t *testing.T) {
	ctx := context.Background()
	RealHashingForTest(t) // the production cost first, as outside a test binary
	real, err := HashPassword(ctx, "motdepasse1")
	if err != nil {
		t.Fatal(err)
	}
	CheapHashingForTests()
	cheapHash, err := HashPassword(ctx, "motdepasse1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, hash, params string
	}{{"real", real, "m=19456,t=2,p=1"}, {"cheap", cheapHash, "m=8,t=1,p=1"}} {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Split(tt.hash, "$")[3]; got != tt.params {
				t.Fatalf("parameters %s, want %s", got, tt.params)
			}
			for password, want := range map[string]bool{"motdepasse1": true, "motdepasse2": false} {
				if ok, err := CheckPassword(ctx, tt.hash, password); err != nil || ok != want {
					t.Fatalf("check %q: %v %v, want %v", password, ok, err, want)
				}
			}
		})
	}
	t.Run("the dummy at the cost of now", func(t *testing.T) {
		h, _ := parsePHC(dummyHash)
		if h.memory != argonMemory || h.time != argonTime {
			t.Fatalf("the dummy's string says m=%d,t=%d", h.memory, h.time)
		}
		for _, hash := range []string{"", "$argon2id$nonsense", dummyHash} {
			if h, _ := checkedAgainst(hash); h.memory != cheap.memory || h.time != cheap.time {
				t.Fatalf("%q checked at m=%d,t=%d, want the cheap cost", hash, h.memory, h.time)
			}
		}
		if h, _ := checkedAgainst(real); h.memory != argonMemory || h.time != argonTime {
			t.Fatalf("a real hash checked at m=%d,t=%d", h.memory, h.time)
		}
		RealHashingForTest(t)
		if h, _ := checkedAgainst(""); h.memory != argonMemory || h.time != argonTime {
			t.Fatalf("under RealHashingForTest, the dummy checked at m=%d,t=%d", h.memory, h.time)
		}
	})
	if c := currentCost(); c != cheap {
		t.Fatalf("cost %+v after RealHashingForTest's test, want %+v", c, cheap)
	}
	for _, hash := range []string{"", dummyHash} {
		if ok, err := CheckPassword(ctx, hash, "motdepasse1"); err != nil || ok {
			t.Fatalf("the dummy %q matched: %v %v", hash, ok, err)
		}
	}
}
