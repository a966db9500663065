package billing_test

import (
	"fmt"
	"testing"

	"primeur/core/billing"
	"primeur/core/decimal"
)

// TestNet: what a cancellation credit note takes off an invoice is its
// lines less what its claims' credit notes took off, line by line (the
// same delivery note and product), at the invoice's price; lines left at
// nothing are dropped, a credit note's quantity never takes off more
// than the line holds, and one of another delivery note leaves the line
// whole.
func TestNet(t *testing.T) {
	t.Parallel()
	line := func(chrono int64, product string, qty, price decimal.Dec) billing.Line {
		return billing.Line{Chrono: chrono, ProductID: product, Quantity: qty, Price: price, Amount: billing.Amount(qty, price)}
	}
	show := func(ls []billing.Line) string {
		s := ""
		for _, l := range ls {
			s += fmt.Sprintf("%d/%s %v×%v=%v;", l.Chrono, l.ProductID, l.Quantity, l.Price, l.Amount)
		}
		return s
	}
	invoice := []billing.Line{line(1, "tomate", 1000, 250), line(1, "laitue", 2000, 90), line(2, "tomate", 500, 250)}
	for _, tc := range []struct {
		name     string
		credited []billing.Line
		want     string
	}{
		{"no claim", nil, "1/tomate 10×2.5=25;1/laitue 20×0.9=18;2/tomate 5×2.5=12.5;"},
		{"part of a line", []billing.Line{line(1, "tomate", 250, 250)}, "1/tomate 7.5×2.5=18.75;1/laitue 20×0.9=18;2/tomate 5×2.5=12.5;"},
		{"a whole line", []billing.Line{line(1, "laitue", 2000, 90)}, "1/tomate 10×2.5=25;2/tomate 5×2.5=12.5;"},
		{"more than the line", []billing.Line{line(2, "tomate", 900, 250)}, "1/tomate 10×2.5=25;1/laitue 20×0.9=18;"},
		{"another note", []billing.Line{line(3, "tomate", 100, 250)}, "1/tomate 10×2.5=25;1/laitue 20×0.9=18;2/tomate 5×2.5=12.5;"},
		{"two notes of one line", []billing.Line{line(1, "tomate", 300, 250), line(1, "tomate", 700, 250)},
			"1/laitue 20×0.9=18;2/tomate 5×2.5=12.5;"},
		{"everything", []billing.Line{line(1, "tomate", 1000, 250), line(1, "laitue", 2000, 90), line(2, "tomate", 500, 250)}, ""},
	} {
		if got := show(billing.Net(invoice, tc.credited)); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
