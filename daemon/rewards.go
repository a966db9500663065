package daemon

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/rewards"
)

// RewardsOutput is a shop's standing in the ambassador programme.
type RewardsOutput struct {
	Body rewards.Standing
}

// ContributionInput pledges a monthly contribution.
type ContributionInput struct {
	Body struct {
		Amount *float64 `json:"amount,omitempty" doc:"EUR per month, 10 at least, two decimals at most" example:"25"`
	}
}

func (d *Daemon) registerRewards(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-rewards",
		Method:      http.MethodGet,
		Path:        "/rewards",
		Summary:     "The shop's standing in the ambassador programme",
		Description: "Level, monthly purchases (done deliveries of the last full month and of the current month; " +
			"the larger counts), months of commitment, rank among shops by purchases, score " +
			"(1 point per euro of monthly purchases + 100 per month of commitment) and the pledged contribution. Shops only.",
		Tags:   []string{"Rewards"},
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden},
	}, d.getRewards)

	huma.Register(api, huma.Operation{
		OperationID: "set-contribution",
		Method:      http.MethodPut,
		Path:        "/rewards/contribution",
		Summary:     "Pledge or change the monthly contribution",
		Description: "Records the shop's commitment (pay-what-you-want, 10 € minimum). No payment is taken yet.",
		Tags:        []string{"Rewards"},
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, d.setContribution)

	huma.Register(api, huma.Operation{
		OperationID: "end-contribution",
		Method:      http.MethodDelete,
		Path:        "/rewards/contribution",
		Summary:     "Withdraw the monthly contribution",
		Description: "Without a pledge, changes nothing. Answers the shop's standing. Shops only.",
		Tags:        []string{"Rewards"},
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden},
	}, d.endContribution)
}

// boardMaxAge is how long the daemon shares one rewards board. Loading a
// board reads every shop's deliveries of the window and every commitment
// of the platform (about a second of CPU at 200 shops on SQLite,
// docs/BENCHMARKS.md); ranks and map scores a minute old are good enough,
// so the cost no longer multiplies with the dashboards opened.
const boardMaxAge = time.Minute

// boards holds the shared rewards board. Each replica loads its own: no
// other process needs it.
type boards struct {
	mu      sync.Mutex // guards board
	board   *rewards.Board
	loading sync.Mutex // held by the request loading a new board
}

func (b *boards) get() *rewards.Board {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.board
}

// board returns a rewards board for now: the shared one while it is fresh;
// otherwise one request loads a new one while the others keep using the
// previous board of the same window for up to ten minutes (never a board
// of another month, whose purchases would be wrong).
func (d *Daemon) board(ctx context.Context) (*rewards.Board, error) {
	now := d.now()
	b := d.boards.get()
	if b.Fresh(now, boardMaxAge) {
		return b, nil
	}
	if b.Fresh(now, 10*boardMaxAge) {
		if !d.boards.loading.TryLock() {
			return b, nil
		}
	} else {
		d.boards.loading.Lock()
	}
	defer d.boards.loading.Unlock()
	if b := d.boards.get(); b.Fresh(now, boardMaxAge) {
		return b, nil // loaded while this request waited
	}
	nb, err := rewards.LoadBoard(ctx, d.db, now)
	if err != nil {
		return nil, err
	}
	d.boards.mu.Lock()
	d.boards.board = nb
	d.boards.mu.Unlock()
	return nb, nil
}

func (d *Daemon) standing(ctx context.Context, shopID string) (*RewardsOutput, error) {
	b, err := d.board(ctx)
	if err != nil {
		return nil, err
	}
	s, err := rewards.StandingOn(ctx, d.db, b, shopID)
	if err != nil {
		return nil, err
	}
	return &RewardsOutput{Body: s}, nil
}

func (d *Daemon) getRewards(ctx context.Context, _ *struct{}) (*RewardsOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	return d.standing(ctx, u.ID)
}

func (d *Daemon) setContribution(ctx context.Context, in *ContributionInput) (*RewardsOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	amount, err := rewards.ParseAmount("amount", in.Body.Amount)
	if err != nil {
		return nil, err
	}
	err = d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		return rewards.SetContribution(ctx, tx, u.ID, amount, d.now())
	})
	if err != nil {
		return nil, err
	}
	return d.standing(ctx, u.ID)
}

func (d *Daemon) endContribution(ctx context.Context, _ *struct{}) (*RewardsOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	err = d.db.Tx(ctx, func(tx *sqlx.Tx) error { return rewards.EndContribution(ctx, tx, u.ID) })
	if err != nil {
		return nil, err
	}
	return d.standing(ctx, u.ID)
}
