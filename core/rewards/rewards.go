// Package rewards computes a shop's standing in the ambassador programme
// (PRODUCT §1 "Rewards", §2 "Rewards panel", §9 participation levels) from what
// it really did on the platform, and stores its pledged monthly
// contribution.
//
// The figures, all for one shop:
//
//   - Purchases of a month: the value of its done deliveries dated in that
//     month (Europe/Paris), each line counted as it is invoiced (PRODUCT §16):
//     (quantitySent + quantityClaimed when the claim was accepted) × price,
//     rounded to the cent per line. Planned and cancelled deliveries count
//     for nothing.
//   - Monthly purchases: the larger of the last full month's purchases and
//     the current month's so far. The last full month keeps a level earned
//     through the month after, while the current month lets a shop that
//     crosses a threshold move up at once instead of waiting a month.
//   - Months of commitment: how many distinct months hold at least one
//     commitment (an accepted proposal with a quantity) on its needs, past
//     or planned.
//   - Rank: 1 + the number of shops with strictly larger monthly purchases
//     (shops with equal purchases share a rank), out of every shop.
//   - Score: one point per whole euro of monthly purchases plus 100 points
//     per month of commitment (ScoreOf). The score rewards steady commitment
//     to producers as much as size: a year of commitments weighs as much as
//     1 200 € of purchases in a month. The contribution does not enter the
//     score; it only decides the certified levels.
//   - Level (LevelOf): the highest of the four PRODUCT §9 levels whose
//     conditions the shop meets.
package rewards

import (
	"context"
	"fmt"
	"math"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/store"
)

// Participation levels (PRODUCT §9), lowest first.
const (
	Sympathisant     = "sympathisant"
	Militant         = "militant"
	Ambassadeur      = "ambassadeur"
	SuperAmbassadeur = "super-ambassadeur"
)

// Levels lists the levels from lowest to highest.
var Levels = []string{Sympathisant, Militant, Ambassadeur, SuperAmbassadeur}

// Thresholds of the levels, in cents. A threshold is reached at its exact
// value: 500 € of monthly purchases make a Militant, a 100 € contribution
// counts as the Super Ambassadeur's "over 100 € per month" (PRODUCT §9 says
// "under 500" for Sympathisant, so 500 itself belongs to the next level).
const (
	MilitantPurchases         = decimal.Dec(500_00)
	AmbassadeurPurchases      = decimal.Dec(1000_00)
	SuperAmbassadeurPurchases = decimal.Dec(2000_00)
	// MinContribution is the smallest pledge (PRODUCT §9: it covers bank fees);
	// any pledge makes a shop with enough purchases an Ambassadeur certifié.
	MinContribution = decimal.Dec(10_00)
	// SuperContribution is the pledge of a Super Ambassadeur certifié.
	SuperContribution = decimal.Dec(100_00)
	// MaxContribution bounds a pledge, against typing mistakes.
	MaxContribution = decimal.Dec(10_000_00)
)

// Score weights (see the package comment).
const (
	PointsPerEuro            = 1
	PointsPerCommitmentMonth = 100
)

// French messages of the contribution form.
const (
	MsgAmountRequired = "Veuillez saisir le montant de votre contribution mensuelle."
	MsgAmountFormat   = "Veuillez saisir un montant en euros, avec deux décimales au plus."
	MsgAmountMin      = "La contribution minimale est de 10 € par mois, pour couvrir les frais bancaires."
	MsgAmountMax      = "La contribution ne peut pas dépasser 10 000 € par mois."
)

// LevelOf returns the level of a shop with these monthly purchases and this
// monthly contribution (0 for none): the highest level whose conditions are
// all met. The certified levels need both the purchases and a pledge;
// without a pledge a shop stays Militant whatever it buys.
func LevelOf(purchases, contribution decimal.Dec) string {
	switch {
	case purchases >= SuperAmbassadeurPurchases && contribution >= SuperContribution:
		return SuperAmbassadeur
	case purchases >= AmbassadeurPurchases && contribution >= MinContribution:
		return Ambassadeur
	case purchases >= MilitantPurchases:
		return Militant
	default:
		return Sympathisant
	}
}

// ScoreOf returns the score for these monthly purchases and months of
// commitment: one point per whole euro plus 100 per month. Negative inputs
// count as zero.
func ScoreOf(purchases decimal.Dec, months int) int64 {
	euros := int64(0)
	if purchases > 0 {
		euros = int64(purchases) / 100
	}
	if months < 0 {
		months = 0
	}
	return euros*PointsPerEuro + int64(months)*PointsPerCommitmentMonth
}

// Window is the purchase window at a time: the last full month and the
// current month ("2026-10-01", "2026-11-01"), in now's location.
func Window(now time.Time) (lastMonth, currentMonth string) {
	currentMonth = calendar.MonthOf(now).String()
	return calendar.AddMonthsTo(currentMonth, -1), currentMonth
}

// MonthValue is an amount for one month.
type MonthValue struct {
	Month string      `json:"month" doc:"First day of the month" example:"2026-10-01"`
	Value decimal.Dec `json:"value" doc:"EUR HT"`
}

// Purchases are a shop's purchases in the window.
type Purchases struct {
	LastMonth    MonthValue  `json:"lastMonth" doc:"Done deliveries of the last full month"`
	CurrentMonth MonthValue  `json:"currentMonth" doc:"Done deliveries of the current month so far"`
	Monthly      decimal.Dec `json:"monthly" doc:"The larger of the two: the figure levels, rank and score use"`
}

func monthly(last, current decimal.Dec) decimal.Dec {
	if current > last {
		return current
	}
	return last
}

// Contribution is a standing pledge.
type Contribution struct {
	Amount decimal.Dec `json:"amount" doc:"EUR per month"`
	Since  string      `json:"since" doc:"RFC 3339: when the pledge was first made"`
	// UpdatedAt is when the amount last changed.
	UpdatedAt string `json:"updatedAt" doc:"RFC 3339"`
}

// Standing is a shop's place in the programme.
type Standing struct {
	Level              string        `json:"level" enum:"sympathisant,militant,ambassadeur,super-ambassadeur"`
	Purchases          Purchases     `json:"purchases"`
	MonthsOfCommitment int           `json:"monthsOfCommitment" doc:"Distinct months with at least one commitment on the shop's needs"`
	Rank               int           `json:"rank" doc:"1 = the largest monthly purchases; equal purchases share a rank"`
	Shops              int           `json:"shops" doc:"Number of shops ranked"`
	Score              int64         `json:"score" doc:"1 point per euro of monthly purchases + 100 per month of commitment"`
	Contribution       *Contribution `json:"contribution" doc:"The pledged monthly contribution; null when none"`
}

// ShopScore is a shop's score, for the map's tooltips.
type ShopScore struct {
	Distributor string `json:"distributor" doc:"Shop id"`
	Score       int64  `json:"score"`
}

// Board is the platform-wide part of the programme at a time: the monthly
// purchases and months of commitment of every shop that has some, which
// ranks and the map's scores compare, and the number of shops ranked (the
// shops a map shows are read at its request, never kept on the board). Loading it reads every shop's done deliveries of
// the window and every commitment of the platform — a cost that grows with
// the platform — so the daemon loads one at most once a minute and shares
// it (daemon/rewards.go); a shop's own figures are always read afresh.
type Board struct {
	// At is when the board was loaded; Last and Current are its window.
	At            time.Time
	Last, Current string
	Purchases     map[string][2]decimal.Dec
	Months        map[string]int
	// Shops is how many shops were open at At: a standing's rank is out of
	// them. Counted with the board, not at each standing, whose cost
	// would then grow with the platform's shops (issue 20).
	Shops int
}

// LoadBoard reads the board at now (Europe/Paris).
func LoadBoard(ctx context.Context, q store.Q, now time.Time) (*Board, error) {
	b := &Board{At: now}
	b.Last, b.Current = Window(now)
	var err error
	if b.Purchases, err = purchasesByShop(ctx, q, b.Last, b.Current, ""); err != nil {
		return nil, err
	}
	if b.Months, err = commitmentMonths(ctx, q, ""); err != nil {
		return nil, err
	}
	if err := store.Get(ctx, q, &b.Shops, `SELECT COUNT(*) FROM users WHERE type = ? AND closed_at IS NULL`,
		accounts.Distributor); err != nil {
		return nil, fmt.Errorf("rewards: count shops: %w", err)
	}
	return b, nil
}

// Fresh reports whether the board may stand for the platform at now: loaded
// less than maxAge before, in the same purchase window.
func (b *Board) Fresh(now time.Time, maxAge time.Duration) bool {
	last, current := Window(now)
	return b != nil && !now.Before(b.At) && now.Sub(b.At) < maxAge && last == b.Last && current == b.Current
}

// Scores is the score on the board of each of shops, read at the request:
// a shop registered since the board was loaded is not on it and scores as
// it did at registration, 0, until the next board.
func (b *Board) Scores(shops []string) []ShopScore {
	out := make([]ShopScore, len(shops))
	for i, id := range shops {
		v := b.Purchases[id]
		out[i] = ShopScore{Distributor: id, Score: ScoreOf(monthly(v[0], v[1]), b.Months[id])}
	}
	return out
}

// StandingOf computes a shop's standing at now (Europe/Paris), on a board
// loaded for the occasion.
func StandingOf(ctx context.Context, q store.Q, shopID string, now time.Time) (Standing, error) {
	if err := mustBeShop(ctx, q, shopID); err != nil {
		return Standing{}, err
	}
	b, err := LoadBoard(ctx, q, now)
	if err != nil {
		return Standing{}, err
	}
	return standingOn(ctx, q, b, shopID)
}

// StandingOn computes a shop's standing in the window of board b: its own
// purchases, months of commitment and contribution are read now; its rank
// compares its purchases with the other shops' on the board.
func StandingOn(ctx context.Context, q store.Q, b *Board, shopID string) (Standing, error) {
	if err := mustBeShop(ctx, q, shopID); err != nil {
		return Standing{}, err
	}
	return standingOn(ctx, q, b, shopID)
}

func standingOn(ctx context.Context, q store.Q, b *Board, shopID string) (Standing, error) {
	own, err := purchasesByShop(ctx, q, b.Last, b.Current, shopID)
	if err != nil {
		return Standing{}, err
	}
	mine := own[shopID]
	p := Purchases{
		LastMonth:    MonthValue{Month: b.Last, Value: mine[0]},
		CurrentMonth: MonthValue{Month: b.Current, Value: mine[1]},
		Monthly:      monthly(mine[0], mine[1]),
	}
	rank := 1
	for id, v := range b.Purchases {
		if id != shopID && monthly(v[0], v[1]) > p.Monthly {
			rank++
		}
	}
	months, err := commitmentMonths(ctx, q, shopID)
	if err != nil {
		return Standing{}, err
	}
	c, err := ContributionOf(ctx, q, shopID)
	if err != nil {
		return Standing{}, err
	}
	amount := decimal.Dec(0)
	if c != nil {
		amount = c.Amount
	}
	return Standing{
		Level:              LevelOf(p.Monthly, amount),
		Purchases:          p,
		MonthsOfCommitment: months[shopID],
		Rank:               rank,
		Shops:              b.Shops,
		Score:              ScoreOf(p.Monthly, months[shopID]),
		Contribution:       c,
	}, nil
}

// Scores returns the score of every shop at now, by shop id, on a board
// loaded for the occasion.
func Scores(ctx context.Context, q store.Q, now time.Time) ([]ShopScore, error) {
	b, err := LoadBoard(ctx, q, now)
	if err != nil {
		return nil, err
	}
	shops, err := accounts.ShopIDs(ctx, q)
	if err != nil {
		return nil, err
	}
	return b.Scores(shops), nil
}

// invoicedQuantity is a delivery line's quantity as invoiced (PRODUCT §16),
// floored at zero.
const invoicedQuantity = `(COALESCE(l.quantity_sent, l.quantity_expected) +
	CASE WHEN d.claim_status = 'accepted' THEN l.quantity_claimed ELSE 0 END)`

// purchasesByShop returns, per shop (or for one shop when shopID is set),
// the value of its done deliveries in the last month [0] and the current
// month [1], each line rounded to the cent (half up) as an invoice line is.
// For one shop the query starts from its orders (a delivery falls in its
// order's month or, rarely, the next one), so that it reads the shop's own
// deliveries instead of every done delivery of the window.
func purchasesByShop(ctx context.Context, q store.Q, last, current, shopID string) (map[string][2]decimal.Dec, error) {
	var rows []struct {
		Distributor string      `db:"distributor_id"`
		Month       string      `db:"month"`
		Value       decimal.Dec `db:"value"`
	}
	end := calendar.AddMonthsTo(current, 1)
	value := `CAST(SUM(CASE WHEN ` + invoicedQuantity + ` > 0
		THEN (l.price * ` + invoicedQuantity + ` + 50) / 100 ELSE 0 END) AS BIGINT) AS value`
	var err error
	if shopID == "" {
		err = store.Select(ctx, q, &rows, `SELECT o.distributor_id AS distributor_id, SUBSTR(d.date, 1, 7) AS month, `+value+`
			FROM delivery_lines l
			JOIN deliveries d ON d.id = l.delivery_id
			JOIN orders o ON o.id = d.order_id
			WHERE d.status = 'done' AND d.date >= ? AND d.date < ?
			GROUP BY o.distributor_id, SUBSTR(d.date, 1, 7)`, last, end)
	} else {
		// The status and dates are tested in the sum, not in WHERE: a
		// condition on them would lead SQLite to the platform-wide
		// (status, date) index instead of the shop's orders.
		inWindow := `d.status = 'done' AND d.date >= ? AND d.date < ?`
		err = store.Select(ctx, q, &rows, `SELECT o.distributor_id AS distributor_id, SUBSTR(d.date, 1, 7) AS month,
				CAST(SUM(CASE WHEN `+inWindow+` AND `+invoicedQuantity+` > 0
					THEN (l.price * `+invoicedQuantity+` + 50) / 100 ELSE 0 END) AS BIGINT) AS value
			FROM orders o
			JOIN deliveries d ON d.order_id = o.id
			JOIN delivery_lines l ON l.delivery_id = d.id
			WHERE o.distributor_id = ? AND o.month >= ? AND o.month < ?
			GROUP BY o.distributor_id, SUBSTR(d.date, 1, 7)`, last, end, shopID, calendar.AddMonthsTo(last, -1), end)
	}
	if err != nil {
		return nil, fmt.Errorf("rewards: purchases: %w", err)
	}
	out := map[string][2]decimal.Dec{}
	for _, r := range rows {
		v := out[r.Distributor]
		switch r.Month {
		case last[:7]:
			v[0] += r.Value
		case current[:7]:
			v[1] += r.Value
		}
		out[r.Distributor] = v
	}
	return out, nil
}

// commitmentMonths counts, per shop (or for one shop when shopID is set),
// the distinct months of its needs holding a commitment with a quantity.
func commitmentMonths(ctx context.Context, q store.Q, shopID string) (map[string]int, error) {
	var rows []struct {
		Distributor string `db:"distributor_id"`
		Months      int    `db:"months"`
	}
	var err error
	if shopID == "" {
		err = store.Select(ctx, q, &rows, `SELECT n.distributor_id AS distributor_id, COUNT(DISTINCT n.month) AS months
			FROM proposals p JOIN needs n ON n.id = p.need_id
			WHERE p.status = 'accepted' AND p.quantity > 0
			GROUP BY n.distributor_id`)
	} else {
		// One shop: its needs, each probing its commitments by need. Joined,
		// PostgreSQL hashed every accepted proposal of the platform for
		// each standing (issue 20: 37 ms of the server's CPU per GET
		// /api/rewards at 200 shops); a subquery with LIMIT stays
		// correlated on both engines.
		err = store.Select(ctx, q, &rows, `SELECT n.distributor_id AS distributor_id, COUNT(DISTINCT n.month) AS months
			FROM needs n
			WHERE n.distributor_id = ? AND (SELECT 1 FROM proposals p
				WHERE p.need_id = n.id AND p.status = 'accepted' AND p.quantity > 0 LIMIT 1) = 1
			GROUP BY n.distributor_id`, shopID)
	}
	if err != nil {
		return nil, fmt.Errorf("rewards: commitment months: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Distributor] = r.Months
	}
	return out, nil
}

// ContributionOf returns the shop's standing pledge, or nil.
func ContributionOf(ctx context.Context, q store.Q, shopID string) (*Contribution, error) {
	var row struct {
		Amount    decimal.Dec `db:"amount"`
		CreatedAt int64       `db:"created_at"`
		UpdatedAt int64       `db:"updated_at"`
	}
	err := store.Get(ctx, q, &row, `SELECT amount, created_at, updated_at FROM contributions WHERE distributor_id = ?`, shopID)
	if store.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("rewards: contribution: %w", err)
	}
	return &Contribution{Amount: row.Amount, Since: stamp(row.CreatedAt), UpdatedAt: stamp(row.UpdatedAt)}, nil
}

// ParseAmount checks a pledge in euros: given, finite, at most two
// decimals, between MinContribution and MaxContribution.
func ParseAmount(field string, amount *float64) (decimal.Dec, error) {
	if amount == nil {
		return 0, core.Invalid(field, MsgAmountRequired)
	}
	if math.IsNaN(*amount) || math.IsInf(*amount, 0) {
		return 0, core.Invalid(field, MsgAmountFormat)
	}
	if *amount > MaxContribution.Float() {
		return 0, core.Invalid(field, MsgAmountMax)
	}
	d, ok := decimal.FromFloat(*amount)
	if !ok {
		return 0, core.Invalid(field, MsgAmountFormat)
	}
	if d < MinContribution {
		return 0, core.Invalid(field, MsgAmountMin)
	}
	return d, nil
}

// SetContribution records or changes the shop's pledge. The amount must
// pass ParseAmount. It runs in the caller's transaction.
func SetContribution(ctx context.Context, q store.Q, shopID string, amount decimal.Dec, now time.Time) error {
	if amount < MinContribution {
		return core.Invalid("amount", MsgAmountMin)
	}
	if amount > MaxContribution {
		return core.Invalid("amount", MsgAmountMax)
	}
	if err := mustBeShop(ctx, q, shopID); err != nil {
		return err
	}
	ms := now.UnixMilli()
	_, err := store.Exec(ctx, q, `INSERT INTO contributions (distributor_id, amount, created_at, updated_at)
		VALUES (?, ?, ?, ?)
		ON CONFLICT (distributor_id) DO UPDATE SET amount = excluded.amount, updated_at = excluded.updated_at`,
		shopID, amount, ms, ms)
	if err != nil {
		return fmt.Errorf("rewards: set contribution: %w", err)
	}
	return nil
}

// EndContribution withdraws the shop's pledge; without one it does nothing.
func EndContribution(ctx context.Context, q store.Q, shopID string) error {
	if err := mustBeShop(ctx, q, shopID); err != nil {
		return err
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM contributions WHERE distributor_id = ?`, shopID); err != nil {
		return fmt.Errorf("rewards: end contribution: %w", err)
	}
	return nil
}

// mustBeShop refuses anyone but an existing shop: the programme is for
// distributors (PRODUCT §6).
func mustBeShop(ctx context.Context, q store.Q, id string) error {
	var typ string
	err := store.Get(ctx, q, &typ, `SELECT type FROM users WHERE id = ?`, id)
	if store.IsNotFound(err) {
		return fmt.Errorf("rewards: user %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("rewards: user %s: %w", id, err)
	}
	if typ != accounts.Distributor {
		return fmt.Errorf("rewards: %s is not a shop: %w", id, core.ErrForbidden)
	}
	return nil
}

func stamp(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}
