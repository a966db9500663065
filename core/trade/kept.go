package trade

import (
	"cmp"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"primeur/core/decimal"
)

// An order keeps the commitments it plans from (orders.commitments,
// migration 00075; issue 42): each acceptance locks its order
// (ensureOrder), whose row gives them back, replaces the one it changes
// and writes them with the plan. The re-plan then reads no commitment
// under SQLite's write lock — that read was the largest of the proposal
// round-trip's hold, a probe of the commitments for each of the shop's
// needs of the month. NULL says that they are not known: the re-plan reads
// them (readCommitments) and the acceptance keeps them. Every other writer
// of the commitments an order plans from sets them back to NULL in its
// transaction: EnsureOrder (whose callers write commitments their own
// way) and a merge of product types (MovePrices). A need with a commitment
// cannot be deleted, and a product's unit does not change
// (TestKeptCommitmentsWriters fails for a writer that forgets).

// kept is what an acceptance knows of its order's commitments for the
// re-plan: when known, the commitments as the acceptance leaves them, and
// what the order stored of them before (encoded; not Valid: nothing).
type kept struct {
	known       bool
	commitments []Commitment
	stored      sql.NullString
}

// write is what the order must store of its commitments after the
// re-plan: nil when nothing changes (not known, or stored already).
func (k kept) write() *string {
	if !k.known {
		return nil
	}
	s := encodeCommitments(k.commitments)
	if k.stored.Valid && k.stored.String == s {
		return nil
	}
	return &s
}

// encodeCommitments writes commitments as the order keeps them: one line
// per commitment, sorted by need, its need, product and unit (identifiers
// without tab nor newline) and its quantity and price (the decimals'
// integers), separated by tabs.
func encodeCommitments(cs []Commitment) string {
	sorted := slices.SortedFunc(slices.Values(cs), func(a, b Commitment) int { return cmp.Compare(a.NeedID, b.NeedID) })
	var b strings.Builder
	for _, c := range sorted {
		b.WriteString(c.NeedID)
		b.WriteByte('\t')
		b.WriteString(c.ProductID)
		b.WriteByte('\t')
		b.WriteString(c.Unit)
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(int64(c.Quantity), 10))
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(int64(c.Price), 10))
		b.WriteByte('\n')
	}
	return b.String()
}

// decodeCommitments reads what encodeCommitments wrote.
func decodeCommitments(s string) ([]Commitment, error) {
	var cs []Commitment
	for line := range strings.Lines(s) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("trade: kept commitment %q: %d fields", line, len(f))
		}
		qty, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("trade: kept commitment %q: %w", line, err)
		}
		price, err := strconv.ParseInt(f[4], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("trade: kept commitment %q: %w", line, err)
		}
		cs = append(cs, Commitment{NeedID: f[0], ProductID: f[1], Unit: f[2], Quantity: decimal.Dec(qty), Price: decimal.Dec(price)})
	}
	return cs, nil
}

// withCommitment is the commitments cs with c in place of the one on c's
// need, if any; c ends it when its quantity is 0.
func withCommitment(cs []Commitment, c Commitment) []Commitment {
	out := slices.DeleteFunc(slices.Clone(cs), func(x Commitment) bool { return x.NeedID == c.NeedID })
	if c.Quantity > 0 {
		out = append(out, c)
	}
	return out
}
